"""A forgotten password: POST /auth/password-reset mails a link (read here from the file
backend, as under `make run`), POST /auth/password-reset/confirm sets the new password with
it, once, and every token of the account ends."""

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import ApiToken
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

ASK = reverse("accounts:password-reset")
CONFIRM = reverse("accounts:password-reset-confirm")
TOKEN = reverse("accounts:token")
ME = reverse("accounts:me")
NEW = "a brand new passphrase 7"
SAID = {"detail": "If an account has this email, a link to reset its password is on its way."}


@pytest.fixture
def mailbox(settings, tmp_path) -> Path:
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    settings.WEB_CLIENT_URL = "https://spider.example"
    return tmp_path


def _mails(mailbox: Path) -> list[str]:
    return [p.read_text() for p in sorted(mailbox.iterdir())]


def _link(text: str) -> dict[str, str]:
    url = re.search(r"https://spider\.example/reset\?\S+", text)
    assert url, text
    assert urlsplit(url.group()).path == "/reset"
    return {k: v[0] for k, v in parse_qs(urlsplit(url.group()).query).items()}


def test_a_reset_by_email_sets_the_password_and_revokes_every_token(
    api_client, auth_client, make_user, mailbox
):
    user = make_user(email="alice@example.com")
    signed_in = auth_client(user)

    asked = api_client.post(ASK, {"email": "ALICE@example.com"})

    assert (asked.status_code, asked.json()) == (202, SAID)
    [text] = _mails(mailbox)
    assert "To: alice@example.com" in text and user.username in text
    link = _link(text)
    confirmed = api_client.post(CONFIRM, {**link, "new_password": NEW})
    assert confirmed.status_code == 204
    user.refresh_from_db()
    assert user.check_password(NEW)
    assert signed_in.get(ME).status_code == 401
    assert not ApiToken.objects.filter(user=user).exists()
    # The link worked once.
    again = api_client.post(CONFIRM, {**link, "new_password": "yet another passphrase 8"})
    assert again.status_code == 400 and again.json()["code"] == "reset_link_invalid"
    assert api_client.post(TOKEN, {"username": user.username, "password": NEW}).status_code == 200


def test_an_unknown_email_is_answered_the_same_and_mails_nothing(api_client, make_user, mailbox):
    make_user(email="alice@example.com")

    asked = api_client.post(ASK, {"email": "nobody@example.com"})

    assert (asked.status_code, asked.json()) == (202, SAID)
    assert _mails(mailbox) == []


def test_no_mail_for_an_inactive_account_or_one_without_a_password(api_client, make_user, mailbox):
    make_user(email="gone@example.com", is_active=False)
    guest = make_user(email="guest@example.com")
    guest.set_unusable_password()
    guest.save()

    for email in ("gone@example.com", "guest@example.com"):
        assert api_client.post(ASK, {"email": email}).status_code == 202

    assert _mails(mailbox) == []


def test_every_account_with_the_address_gets_its_own_link(api_client, make_user, mailbox):
    first, second = make_user(email="home@example.com"), make_user(email="home@example.com")

    api_client.post(ASK, {"email": "home@example.com"})

    texts = _mails(mailbox)
    assert len(texts) == 2
    uids = {_link(t)["uid"] for t in texts}
    assert len(uids) == 2
    assert any(first.username in t for t in texts) and any(second.username in t for t in texts)


def test_one_mail_per_address_a_minute_whoever_asks(api_client, make_user, mailbox):
    make_user(email="alice@example.com")

    for _ in range(3):
        assert api_client.post(ASK, {"email": "alice@example.com"}).status_code == 202

    assert len(_mails(mailbox)) == 1


def test_asking_is_throttled_per_client_address(api_client, make_user, set_throttle_rate):
    set_throttle_rate("password_reset", "2/hour")

    answers = [api_client.post(ASK, {"email": f"x{n}@example.com"}) for n in range(3)]

    assert [a.status_code for a in answers] == [202, 202, 429]
    assert answers[2]["Retry-After"]


@pytest.mark.parametrize(
    "change",
    [
        {"token": "not-a-token"},
        {"uid": "MTIzNDU2Nzg5"},  # another account's id, encoded
        {"uid": "!!"},
        {"uid": "OTk5OTk5OTk5OTk5OTk5OTk5OTk5OTk5OTk5"},  # an id past any integer column
    ],
)
def test_a_wrong_link_is_400_reset_link_invalid(api_client, make_user, mailbox, change):
    user = make_user(email="alice@example.com")
    api_client.post(ASK, {"email": "alice@example.com"})
    link = _link(_mails(mailbox)[0])

    response = api_client.post(CONFIRM, {**link, **change, "new_password": NEW})

    assert response.status_code == 400
    assert response.json()["code"] == "reset_link_invalid"
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_a_weak_new_password_is_refused_and_the_link_still_works(api_client, make_user, mailbox):
    make_user(email="alice@example.com")
    api_client.post(ASK, {"email": "alice@example.com"})
    link = _link(_mails(mailbox)[0])

    weak = api_client.post(CONFIRM, {**link, "new_password": "password"})

    assert weak.status_code == 400 and "new_password" in weak.json()["errors"]
    assert api_client.post(CONFIRM, {**link, "new_password": NEW}).status_code == 204


def test_register_may_set_the_email(api_client):
    response = api_client.post(
        reverse("accounts:register"),
        {"username": "bob", "password": PASSWORD, "email": "bob@example.com", "device": "pc"},
    )

    assert response.status_code == 201 and response.json()["device"] == "pc"
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {response.json()['token']}")
    assert api_client.get(ME).json()["email"] == "bob@example.com"
    assert mail.outbox == []


def test_with_a_broker_the_mail_is_a_task_of_that_name(api_client, make_user, mailbox, settings):
    from celery import current_app

    from accounts.services import SEND_PASSWORD_RESET_TASK
    from accounts.tasks import send_password_reset

    make_user(email="alice@example.com")
    settings.CELERY_TASK_ALWAYS_EAGER = False
    queued = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(current_app, "send_task", lambda name, args: queued.append((name, args)))
        assert api_client.post(ASK, {"email": "alice@example.com"}).status_code == 202

    assert queued == [(SEND_PASSWORD_RESET_TASK, ("alice@example.com",))]
    assert _mails(mailbox) == []  # not sent by the request
    assert send_password_reset.name == SEND_PASSWORD_RESET_TASK
    send_password_reset.apply(args=queued[0][1])  # what the worker does
    assert len(_mails(mailbox)) == 1
