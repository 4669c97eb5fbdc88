"""The board's URLs, under /tables/<pk>/board/ (included by money/urls.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("<int:pk>/board/", views.table_board, name="table_board"),
    path("<int:pk>/board/act/", views.table_board_act, name="table_board_act"),
]
