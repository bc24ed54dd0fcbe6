"""Settings of the compat Django project: the server comes from the environment
(DB_HOST, DB_PORT, DB_NAME), the backend is Django's MySQL one (mysqlclient)."""

import os

SECRET_KEY = "compat-tests-only"
DEBUG = False
USE_TZ = True
TIME_ZONE = "Europe/Paris"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "shop",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]
TEMPLATES = [{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True,
              "OPTIONS": {"context_processors": ["django.contrib.auth.context_processors.auth",
                                                 "django.contrib.messages.context_processors"
                                                 ".messages",
                                                 "django.template.context_processors.request"]}}]
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.mysql",
        "HOST": os.environ["DB_HOST"],
        "PORT": int(os.environ["DB_PORT"]),
        "NAME": os.environ["DB_NAME"],
        "USER": "root",
        "PASSWORD": "",
        "OPTIONS": {"charset": "utf8mb4"},
    }
}
