"""Over HTTP nothing names a file on the server: boards come from the package, the store or the
request; reader specs name only serial devices, sim or SPI numbers; /static serves only assets.
(Issue 10, point 6.)"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from scorekeeper.api.assets import is_asset
from scorekeeper.errors import ConfigError
from scorekeeper.games.arcanum.boards import BOARDS_DIR, find_profile
from scorekeeper.readers.base import check_remote_spec

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

ARCANUM = {"game": "arcanum", "seats": ["Ann", "Bea", "Cid"]}


# -- boards ------------------------------------------------------------------------------------


def test_a_board_option_never_reads_a_server_file(
    real: tuple[TestClient, dict[str, str]], tmp_path: Path
) -> None:
    client, org = real
    secret = tmp_path / "secret.yaml"
    secret.write_text("db_password: hunter2\n", encoding="utf-8")
    good = tmp_path / "good.yaml"
    good.write_text((BOARDS_DIR / "sample.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    answers = []
    for value in (
        str(secret),
        str(good),
        str(tmp_path / "missing.yaml"),
        "/etc/passwd",
        "../../etc/passwd",
    ):
        r = client.post("/api/tables", headers=org, json={**ARCANUM, "options": {"board": value}})
        assert r.status_code == 422, (value, r.text)
        error = r.json()["error"]
        assert "db_password" not in error and "hunter2" not in error
        assert "no such file" not in error and ":1:" not in error and "exist" not in error
        assert error.startswith("there is no board profile called ")
        answers.append(error.partition("; ")[2])  # what follows the name given
    # an existing file, a valid profile file and a missing one get the very same answer
    assert len(set(answers)) == 1, answers
    assert "sample" in answers[0] and "Board profiles" in answers[0]
    assert client.get("/api/tables").json() == []


def test_a_board_comes_by_shipped_name_stored_name_or_upload(
    real: tuple[TestClient, dict[str, str]],
) -> None:
    client, org = real
    profile = {**find_profile("sample").to_mapping(), "name": "club-board", "sample": False}
    r = client.put("/api/data/arcanum/board/club-board", headers=org, json={"data": profile})
    assert r.status_code == 200, r.text
    by_name = client.post(
        "/api/tables", headers=org, json={**ARCANUM, "options": {"board": "club-board"}}
    )
    assert by_name.status_code == 201, by_name.text
    view = client.get(f"/api/tables/{by_name.json()['id']}").json()
    assert view["state"]["board"] == {"name": "club-board", "sample": False}
    uploaded = client.post(
        "/api/tables", headers=org, json={**ARCANUM, "options": {"board": profile}}
    )
    assert uploaded.status_code == 201, uploaded.text
    shipped = client.post(
        "/api/tables", headers=org, json={**ARCANUM, "options": {"board": "sample"}}
    )
    assert shipped.status_code == 201, shipped.text


# -- reader specs ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec",
    [
        "serial:/etc/passwd",
        "serial:/dev/tty/../../etc/passwd",
        "serial:/dev/serial/by-id/..",
        "serial:/dev/serial/by-id/../../../etc/shadow",
        "serial:/dev/sda",
        "serial:/tmp/x",
        "sim+serial:/etc/passwd",
        "serial:/dev/ttyACM0/../../etc/passwd",
        "serial:",
        "file:/etc/passwd",
        "serial:socket://10.0.0.1:80",
        "serial:/dev/pts/../../etc/passwd",
        "serial:/dev/pts/ptmx",
    ],
)
def test_a_reader_spec_over_http_names_no_other_file(spec: str) -> None:
    with pytest.raises(ConfigError, match="cannot be used here|empty") as caught:
        check_remote_spec(spec)
    assert "exist" not in str(caught.value)


@pytest.mark.parametrize(
    "spec",
    [
        "sim",
        "sim:r1,r2?absent_after_ms=200",
        "serial:/dev/ttyACM0",
        "serial:/dev/ttyUSB1?baud=9600",
        "serial:/dev/serial/by-id/usb-Raspberry_Pi_Pico_E6614C311B2A5D23-if00",
        "serial:/dev/scorekeeper-bridge",
        "serial:/dev/pts/3",
        "spi:0.0,0.1",
        "mfrc522:",
        "serial:/dev/ttyACM0+sim:x",
    ],
)
def test_serial_devices_sim_and_spi_numbers_are_accepted(spec: str) -> None:
    assert check_remote_spec(f" {spec} ") == spec


def test_a_table_with_a_path_for_readers_is_refused_and_nothing_is_opened(
    real: tuple[TestClient, dict[str, str]], tmp_path: Path
) -> None:
    client, org = real
    there = tmp_path / "there"
    there.write_text("x", encoding="utf-8")
    errors = []
    for path in (there, tmp_path / "not-there"):
        r = client.post(
            "/api/tables",
            headers=org,
            json={"game": "angels-and-demons", "seats": 2, "readers": f"serial:{path}"},
        )
        assert r.status_code == 422, r.text
        errors.append(r.json()["error"].replace(str(path), "<path>"))
    assert errors[0] == errors[1] and "serial:/dev/ttyACM0" in errors[0]
    assert client.get("/api/tables").json() == []
    r = client.post(
        "/api/tables",
        headers=org,  # a path slipped into the settings
        json={
            "game": "angels-and-demons",
            "seats": 2,
            "readers": "serial:/dev/ttyACM0?port=/etc/passwd",
        },
    )
    assert r.status_code == 422 and "unknown setting 'port'" in r.json()["error"]
    r = client.post(
        "/api/enroll",
        headers=org,
        json={"kit": "k", "game": "angels-and-demons", "readers": "serial:/etc/passwd"},
    )
    assert r.status_code == 422 and "cannot be used here" in r.json()["error"]
    r = client.post(
        "/api/tables", headers=org, json={"game": "angels-and-demons", "seats": 2, "readers": "sim"}
    )
    assert r.status_code == 201, r.text


# -- static files ------------------------------------------------------------------------------


def test_static_serves_the_assets_only(real: tuple[TestClient, dict[str, str]]) -> None:
    client, _ = real
    for asset in ("console.js", "console.css", "app.js", "style.css", "index.html"):
        assert client.get(f"/static/{asset}").status_code == 200, asset
    for path in (
        "__init__.py",
        "__pycache__/x.pyc",
        ".hidden.js",
        "games/.x.css",
        "..%2Fscorekeeper%2F__init__.py",
        "%2E%2E/pyproject.toml",
        "console.js.py",
        "nope.js",
    ):
        r = client.get(f"/static/{path}")
        assert r.status_code == 404, (path, r.status_code)
        assert "import" not in r.text


def test_is_asset() -> None:
    assert is_asset("games/arcanum.js") and is_asset("ICON.PNG")
    assert not is_asset("__init__.py") and not is_asset("../x.js") and not is_asset(".env")
    assert not is_asset("") and not is_asset("a//b.js") and not is_asset("games/.git/x.js")
