from django.urls import path

from . import views

urlpatterns = [
    path("", views.matches, name="matches"),
    path("new/", views.match_new, name="match_new"),
    path("<int:pk>/", views.match, name="match"),
    path("<int:pk>/sheet/", views.score_sheet, name="score_sheet"),
    path("<int:pk>/games/", views.game_new, name="game_new"),
    path("<int:pk>/games/<int:number>/", views.game_edit, name="game_edit"),
    path("<int:pk>/final-score/", views.final_score, name="final_score"),
    path("<int:pk>/walkover/", views.walkover, name="walkover"),
]
