"""The site's addresses: public pages, the director's forms, sign-in, the admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config.accounts import ResetByAddressForm

urlpatterns = [
    path("", include("tournaments.urls")),
    path("matches/", include("matches.urls")),
    path("tables/", include("money.urls")),  # chouettes and money sessions (issue 27)
    path("jobs/", include("jobs.urls")),  # long work: its progress, its file (issue 29)
    path("api/v1/", include("api.urls")),  # the read-only JSON API (docs/api.md)
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # a forgotten password: Django's own views, our templates in templates/registration/;
    # the account found by the address its mail goes to, the mail our own (issue 25)
    path(
        "accounts/password_reset/",
        auth_views.PasswordResetView.as_view(
            form_class=ResetByAddressForm,
            email_template_name="registration/password_reset_email.txt",
            subject_template_name="registration/password_reset_subject.txt",
        ),
        name="password_reset",
    ),
    path(
        "accounts/password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]

handler400 = "config.views.bad_request"
handler404 = "tournaments.views.page_not_found"
handler500 = "tournaments.views.server_error"
