"""Background work, under /jobs/."""

from django.urls import path

from . import views

app_name = "jobs"

urlpatterns = [
    path("", views.jobs, name="jobs"),
    path("<int:pk>/", views.job, name="job"),
    path("<int:pk>/again/", views.job_again, name="job_again"),
    path("<int:pk>/file/", views.job_download, name="job_download"),
]
