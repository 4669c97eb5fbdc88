"""Reading .mat files: every variant real programs write, and clear refusals (rules.matfile)."""

import pytest

from rules.errors import MatFileError
from rules.matfile import EntryKind, read_mat
from rules.replay import replay_match

GNUBG_STYLE = """\
; [Site "Circolo Backgammon Milano"]
; [Event "Torneo sociale"]
; [Round "2"]
; [Player 1 "Anna Rossi"]
; [Player 2 "Bruno Bianchi"]
; [EventDate "2026.11.20"]
; a free comment line

 3 point match

 Game 1
 Anna Rossi : 0                 Bruno Bianchi : 0
  1)                             41: 13/9 24/23
  2) 31: 8/5 6/5                  Doubles => 2
  3)  Drops
      Wins 1 point

 Game 2
 Anna Rossi : 1                 Bruno Bianchi : 0
  1) 65: 24/13                   31: 8/5 6/5
"""


def kinds(record, game=0):
    return [(e.player, e.kind.value) for e in record.games[game].entries]


def test_tags_comments_length_and_players():
    record = read_mat(GNUBG_STYLE)
    assert record.length == 3
    assert record.players == ("Anna Rossi", "Bruno Bianchi")
    assert record.tag("event") == "Torneo sociale" and record.tag("Round") == "2"
    assert record.tag("Player 1") == "Anna Rossi" and record.tag("nothing") is None
    assert "a free comment line" in record.comments
    assert kinds(record) == [(1, "roll"), (0, "roll"), (1, "double"), (0, "drop"), (0, "win")]
    assert record.games[1].score == (1, 0) and record.games[1].score_line == 19


def test_bom_crlf_and_latin1_read_the_same():
    plain = read_mat(GNUBG_STYLE)
    crlf = read_mat(("\ufeff" + GNUBG_STYLE.replace("\n", "\r\n")).encode("utf-8"))
    assert crlf == plain
    accented = GNUBG_STYLE.replace("Bruno Bianchi", "Niccolò Bianchi")
    assert read_mat(accented.encode("latin-1")).players[1] == "Niccolò Bianchi"
    assert read_mat(accented.encode("utf-8-sig")).players[1] == "Niccolò Bianchi"


@pytest.mark.parametrize(
    "header, names, ratings",
    [
        (" Anna Rossi,1650 : 0        Bruno : 0", ("Anna Rossi", "Bruno"), ("1650", None)),
        (
            " Anna (1712.5) : 0    Bruno Bianchi (1500) : 0",
            ("Anna", "Bruno Bianchi"),
            ("1712.5", "1500"),
        ),
    ],
)
def test_names_with_ratings(header, names, ratings):
    text = f" 1 point match\n\n Game 1\n{header}\n  1) 31: 8/5 6/5\n"
    record = read_mat(text)
    assert record.players == names and record.ratings == ratings


@pytest.mark.parametrize("column", [20, 33, 45, 60])
def test_the_right_column_at_any_width(column):
    def line(number, left, right=""):
        start = f"{number:3d}) {left}"
        return start.ljust(column) + right if right else start

    text = "\n".join(
        [
            " 1 point match",
            "",
            " Game 1",
            " Anna : 0".ljust(column) + "Bruno : 0",
            line(1, "", "41: 13/9 24/23"),
            line(2, "31: 8/5 6/5", "52: 13/8 13/11"),
            line(3, "66:"),
        ]
    )
    record = read_mat(text)
    assert kinds(record) == [(1, "roll"), (0, "roll"), (1, "roll"), (0, "roll")]
    assert record.games[0].entries[3].play == ""  # a dance written as dice alone


def test_rolls_dances_unknown_and_cannot_move():
    text = """ 5 point match

 Game 1
 Anna : 0                       Bruno : 0
  1) 14: 24/23 24/20             66:
  2) 53: Cannot Move             21: ???
"""
    entries = read_mat(text).games[0].entries
    assert entries[0].dice == (1, 4)  # dice in rolled order are kept as written
    assert entries[1].play == "" and entries[2].play == ""
    assert entries[3].play is None  # '???': the play is not recorded


def test_cube_and_result_entries():
    text = """ 0 point match

 Game 1
 Anna : 0                       Bruno : 0
  1) 31: 8/5 6/5                  Doubles => 2
  2)  Beavers => 4                Takes
  3)  Resigns                     Wins 4 points
 Game 2
 Anna : 0                       Bruno : 4
  1) 31: 8/5 6/5                  Doubles => 2
  2)  Drops                       Wins 1 points and the match
 Game 3
 Anna : 0                       Bruno : 5
  1)  Losses 1 point                                    Wins 1 point
"""
    record = read_mat(text)
    assert record.length == 0  # a money session
    first = record.games[0].entries
    assert [(e.kind, e.value) for e in first[1:]] == [
        (EntryKind.DOUBLE, 2),
        (EntryKind.BEAVER, 4),
        (EntryKind.TAKE, None),
        (EntryKind.RESIGN, None),
        (EntryKind.WIN, 4),
    ]
    drop, win = record.games[1].entries[2:]
    assert (drop.player, drop.kind, win.player, win.kind) == (0, EntryKind.DROP, 1, EntryKind.WIN)
    assert win.value == 1 and win.match and drop.line == win.line == 11
    loss, win = record.games[2].entries
    assert (loss.kind, loss.player, loss.value, win.player) == (EntryKind.LOSS, 0, 1, 1)


def test_merged_hops_bar_and_off_as_numbers_replay():
    text = """ 1 point match

 Game 1
 Anna : 0                       Bruno : 0
  1)                             63: 24/15
  2) 21: 13/11 6/5               64: 24/20 15/9
  3) 62: 25/23 13/7
"""
    replay = replay_match(read_mat(text))
    plays = [a.play for a in replay.games[0].log if a.act.value == "play"]
    # the hit on 20 was not starred; the engine knows it, and Anna enters from the bar
    assert plays == ["24/15", "13/11 6/5", "24/20* 15/9", "bar/23 13/7"]


@pytest.mark.parametrize(
    "text, line, expected",
    [
        ("", 1, "expected the match length"),
        ("; only a comment\n", 1, "expected the match length"),
        ("\n\nhello world\n", 3, "expected the match length, e.g. '7 point match', not 'hello"),
        (" 7 point match\n\n", 2, "expected 'Game 1'"),
        (" 7 point match\n Anna : 0   Bruno : 0\n", 2, "expected a game header such as 'Game 1'"),
        (" 7 point match\n Game 1\n  1) 31: 8/5 6/5\n", 3, "expected the players and the score"),
        (" 7 point match\n Game 1\n", 2, "the file ends"),
        (
            " 7 point match\n Game 1\n Anna : 0   Bruno : 0\n  1) hello 31: 8/5 6/5\n",
            4,
            "expected a move line",
        ),
        (" 7 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5  Takes it\n", 4, "'Takes it'"),
        (" 7 point match\n Game 1\n A : 0   B : 0\n  x) 31: 8/5\n", 4, "expected a move line"),
    ],
)
def test_unreadable_files_say_where_and_what_was_expected(text, line, expected):
    with pytest.raises(MatFileError) as caught:
        read_mat(text)
    assert caught.value.line == line
    assert expected in str(caught.value) and str(caught.value).startswith(f"line {line}: ")
