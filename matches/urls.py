from django.urls import path

from . import archive_views, penalty_views, report_views, views
from .board import views as board_views

urlpatterns = [
    path("", views.matches, name="matches"),
    path("new/", views.match_new, name="match_new"),
    path("<int:pk>/", views.match, name="match"),
    path("<int:pk>/sheet/", views.score_sheet, name="score_sheet"),
    path("<int:pk>/games/", views.game_new, name="game_new"),
    path("<int:pk>/games/<int:number>/", views.game_edit, name="game_edit"),
    path("<int:pk>/final-score/", views.final_score, name="final_score"),
    path("<int:pk>/walkover/", views.walkover, name="walkover"),
    path("<int:pk>/retire/", views.retire, name="retire"),
    path("<int:pk>/result/take-back/", views.result_clear, name="result_clear"),
    path("<int:pk>/penalties/", penalty_views.penalty_new, name="penalty_new"),
    path(
        "<int:pk>/penalties/<int:number>/take-back/",
        penalty_views.penalty_remove,
        name="penalty_remove",
    ),
    path("<int:pk>/forfeit/", penalty_views.forfeit, name="forfeit"),
    path("<int:pk>/dice/", views.match_dice, name="match_dice"),
    path("<int:pk>/board/", board_views.board, name="board"),
    path("<int:pk>/board/start/", board_views.board_start, name="board_start"),
    path("<int:pk>/board/<int:number>/", board_views.board_act, name="board_act"),
    path("<int:pk>/board/clocks/", board_views.board_clocks, name="board_clocks"),
    path("<int:pk>/games/<int:number>/log/", views.game_log, name="game_log"),
    path("<int:pk>/match.mat", views.match_export, name="match_export"),
    path("<int:pk>/import/", views.match_import, name="match_import"),
    path("<int:pk>/disputes/new/", views.dispute_new, name="dispute_new"),
    path("<int:pk>/disputes/<int:number>/", views.dispute, name="dispute"),
    path("<int:pk>/report/", report_views.report, name="report"),
    path("<int:pk>/report/confirm/", report_views.report_confirm_view, name="report_confirm"),
    path("<int:pk>/report/dispute/", report_views.report_dispute_view, name="report_dispute"),
    path("<int:pk>/report/withdraw/", report_views.report_withdraw_view, name="report_withdraw"),
    path("import/", archive_views.archive_import, name="matches_import"),
    path("export/<slug:table>/", archive_views.table_prepare, name="table_prepare"),
]
