from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("players/", views.players, name="players"),
    path("players/new/", views.player_new, name="player_new"),
    path("players/<int:pk>/", views.player, name="player"),
]
