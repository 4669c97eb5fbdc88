"""The tables: chouettes and money sessions, under /tables/ (issue 27)."""

from django.urls import path

from . import views, views_print, views_table
from .board.urls import urlpatterns as board_patterns

app_name = "money"

urlpatterns = [
    path("", views.tables, name="tables"),
    path("new/chouette/", views.chouette_new, name="chouette_new"),
    path("new/money/", views.money_new, name="money_new"),
    path("join/", views.join, name="join"),
    path("<int:pk>/", views_table.table, name="table"),
    path("<int:pk>/act/", views_table.act, name="act"),
    path("<int:pk>/opening/", views_table.opening, name="opening"),
    path("<int:pk>/box-doubles/", views_table.box_doubles, name="box_doubles"),
    path("<int:pk>/deal/", views_table.deal, name="deal"),
    path("<int:pk>/end/", views_table.end, name="end"),
    path("<int:pk>/undo/", views_table.undo, name="undo"),
    path("<int:pk>/seat/", views_table.seat, name="seat"),
    path("<int:pk>/stake/", views_table.stake, name="stake"),
    path("<int:pk>/close/", views_table.close, name="close"),
    path("<int:pk>/settlement/", views_print.settlement, name="settlement"),
    path("<int:pk>/correct/<int:seq>/", views_table.correct, name="correct"),
    *board_patterns,  # the board: <pk>/board/ (money/board/urls.py)
]
