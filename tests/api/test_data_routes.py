"""The games' data over HTTP (/api/data): kinds, entries, schema, check, save, export, delete,
and a table created with a saved entry's name carrying the whole mapping in its config."""

from __future__ import annotations

import json
from typing import Any

from scorekeeper.games.arcanum.boards import find_profile
from scorekeeper.service import Hub

BOARDS = "/api/data/arcanum/board"
ARCANUM = {"game": "arcanum", "seats": ["Ann", "Bea", "Cid"]}


def _mine(description: str = "copied from our board") -> dict[str, Any]:
    mine = find_profile("sample").to_mapping()
    mine.update(sample=False, description=description)
    return json.loads(json.dumps(mine))  # as JSON carries it: location numbers as text


def test_the_kinds_are_listed_and_a_game_without_data_shows_none(client: Any) -> None:
    kinds = client.get("/api/data").json()
    board = next(k for k in kinds if (k["game"], k["kind"]) == ("arcanum", "board"))
    assert board["game_name"] == "Arcanum" and board["option"] == "board"
    assert board["title"] == "Board profiles" and "locations" in board["help"]
    assert not any(k["game"] == "angels-and-demons" for k in kinds)
    r = client.get("/api/data/angels-and-demons/board")
    assert r.status_code == 404 and "keeps no data" in r.json()["error"]
    assert client.get("/api/data/chess/board").status_code == 404
    assert client.get("/api/data/arcanum/deck").status_code == 404


def test_entries_list_the_samples_with_what_they_miss(client: Any) -> None:
    entries = {e["name"]: e for e in client.get(BOARDS).json()}
    assert set(entries) == {"known", "sample"}
    sample, known = entries["sample"], entries["known"]
    assert sample["sample"] is True and sample["complete"] is True and sample["problems"] == []
    assert sample["stored"] is False and "NOT the printed board" in sample["description"]
    assert known["sample"] is False and known["complete"] is False
    assert known["problems"] == find_profile("known").problems()
    one = client.get(f"{BOARDS}/sample").json()
    assert one["data"]["locations"]["10"]["id"] == "castle" and one["sample"] is True
    r = client.get(f"{BOARDS}/nowhere")
    assert r.status_code == 404 and "there are known, sample" in r.json()["error"]


def _fields(schema: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every property of every object in the schema, with its path."""
    out: list[tuple[str, dict[str, Any]]] = []
    for where, node in [("", schema), *schema.get("$defs", {}).items()]:
        for name, prop in node.get("properties", {}).items():
            out.append((f"{where}.{name}", prop))
    return out


def test_the_schema_says_every_field_in_words_and_labels_every_enum(client: Any) -> None:
    schema = client.get(f"{BOARDS}/schema").json()
    assert schema["title"] == "Board profiles" and schema["description"]
    fields = _fields(schema)
    assert len(fields) > 20  # profile, gain, locations 1-10, location, icons
    enums = 0
    for path, prop in fields:
        assert prop.get("title") and prop.get("description"), path
        members = [prop, *prop.get("anyOf", [])]
        for member in members:
            if "enum" in member:
                enums += 1
                labels = prop.get("x-labels") or member.get("x-labels")
                assert labels and set(member["enum"]) <= set(labels), path
    assert enums >= 1
    effect = schema["$defs"]["LocationModel"]["properties"]["id"]
    assert effect["x-labels"]["harbor"] == "Harbour"


def test_check_says_what_is_missing_and_names_line_and_field(client: Any, org: Any) -> None:
    known = find_profile("known").to_mapping()
    r = client.post(f"{BOARDS}/check", headers=org, json={"data": known})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["ok"] is True and body["complete"] is False
    assert body["problems"] == find_profile("known").problems()
    assert body["data"] == json.loads(json.dumps(known)) and "locations:" in body["yaml"]
    sample = client.post(
        f"{BOARDS}/check", headers=org, json={"data": find_profile("sample").to_mapping()}
    ).json()
    assert sample["complete"] is True and sample["problems"] == []
    # the YAML text round-trips, and its errors name the line and the field
    again = client.post(f"{BOARDS}/check", headers=org, json={"yaml": sample["yaml"]}).json()
    assert again["data"] == sample["data"]
    r = client.post(
        f"{BOARDS}/check", headers=org, json={"yaml": "name: x\nlocations:\n  1: {id: moon}\n"}
    )
    assert r.status_code == 422 and r.json()["line"] == 3
    assert r.json()["error"].startswith("line 3: locations, location 1, effect must be")
    assert "'moon'" in r.json()["error"]
    r = client.post(f"{BOARDS}/check", headers=org, json={"data": {"name": "x", "colour": "red"}})
    assert r.status_code == 422 and "unknown key 'colour'" in r.json()["error"]
    r = client.post(f"{BOARDS}/check", headers=org, json={"name": "x"})
    assert r.status_code == 422 and "{yaml: text}, {csv: text} or {data: mapping}" in r.text


def test_csv_export_and_check_round_trip(client: Any, org: Any) -> None:
    r = client.get(f"{BOARDS}/sample/export", params={"format": "csv"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert 'filename="sample.csv"' in r.headers["content-disposition"]
    lines = r.text.splitlines()
    assert lines[0].startswith("location,id,name,swords,coins,")
    assert lines[6].startswith("6,fields,Fields,-1,0,2,1,1,0,0,0")  # a negative count stays
    back = client.post(f"{BOARDS}/check", headers=org, json={"csv": r.text}).json()
    sample = client.get(f"{BOARDS}/sample").json()["data"]
    assert back["complete"] is True
    assert back["data"] == {**sample, "name": "imported", "sample": False}
    yaml_text = client.get(f"{BOARDS}/known/export").text
    assert "knight: 2" in yaml_text and yaml_text.startswith("# scorekeeper board profile")
    bad = r.text.replace("6,fields,Fields,-1", "6,fields,Fields,many")
    r = client.post(f"{BOARDS}/check", headers=org, json={"csv": bad})
    assert r.status_code == 422 and r.json()["line"] == 7
    assert "location 6: the count of swords must be a whole number, not 'many'" in r.text
    assert client.get(f"{BOARDS}/sample/export", params={"format": "pdf"}).status_code == 422


def test_saved_entries_are_listed_replaced_and_deleted_but_samples_never(
    client: Any, org: Any, hub: Hub
) -> None:
    r = client.put(f"{BOARDS}/club-board", headers=org, json={"data": _mine()})
    assert r.status_code == 200, r.text
    saved = r.json()
    assert saved["stored"] is True and saved["sample"] is False and saved["complete"] is True
    assert saved["data"]["name"] == "club-board"
    assert hub.store.data("arcanum", "board", "club-board") is not None  # in the data table
    # incomplete entries may be saved too (an entry saved half-way)
    half = client.put(f"{BOARDS}/half", headers=org, json={"yaml": "name: half\n"}).json()
    assert half["complete"] is False and half["problems"]
    listed = {e["name"]: e for e in client.get(BOARDS).json()}
    assert listed["club-board"]["stored"] is True and listed["half"]["complete"] is False
    # replaced, not duplicated
    client.put(f"{BOARDS}/club-board", headers=org, json={"data": _mine("second try")})
    names = [e["name"] for e in client.get(BOARDS).json()]
    assert names.count("club-board") == 1
    assert client.get(f"{BOARDS}/club-board").json()["description"] == "second try"
    # a sample is neither overwritten nor deleted; odd names are refused
    r = client.put(f"{BOARDS}/sample", headers=org, json={"data": _mine()})
    assert r.status_code == 422 and "sample shipped with scorekeeper" in r.json()["error"]
    r = client.delete(f"{BOARDS}/sample", headers=org)
    assert r.status_code == 422 and "samples cannot be deleted" in r.json()["error"]
    assert client.get(f"{BOARDS}/sample").json()["sample"] is True
    for odd in ("a%20b", "schema", "check"):
        assert client.put(f"{BOARDS}/{odd}", headers=org, json={"data": _mine()}).status_code in (
            405,
            422,
        ), odd
    # deleting
    assert client.delete(f"{BOARDS}/half", headers=org).json() == {"deleted": "half"}
    assert client.delete(f"{BOARDS}/half", headers=org).status_code == 404
    assert "half" not in {e["name"] for e in client.get(BOARDS).json()}


def test_a_table_made_with_a_saved_name_carries_the_whole_entry(
    client: Any, org: Any, hub: Hub
) -> None:
    mine = _mine()
    client.put(f"{BOARDS}/club-board", headers=org, json={"data": mine})
    r = client.post(
        "/api/tables", headers=org, json={**ARCANUM, "options": {"board": "club-board"}}
    )
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    board = json.loads(json.dumps(hub.config(table_id).options["board"]))
    assert board == {**mine, "name": "club-board"}  # replay never needs the store
    view = client.get(f"/api/tables/{table_id}").json()
    assert view["state"]["board"] == {"name": "club-board", "sample": False}
    # deleting the entry leaves the table as it was
    client.delete(f"{BOARDS}/club-board", headers=org)
    assert json.loads(json.dumps(hub.config(table_id).options["board"])) == board
    r = client.post("/api/tables", headers=org, json={**ARCANUM, "options": {"board": "known"}})
    assert r.status_code == 422 and "cannot start a table" in r.json()["error"]
