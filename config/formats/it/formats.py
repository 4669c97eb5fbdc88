"""Italian dates with the month in lower case (E: the month's name as a date writes it)."""

DATE_FORMAT = "j E Y"  # 23 novembre 2026
DATETIME_FORMAT = "j E Y, H:i"  # 23 novembre 2026, 21:04
YEAR_MONTH_FORMAT = "E Y"  # novembre 2026
MONTH_DAY_FORMAT = "j E"  # 23 novembre
