"""Undo and correct as the console does them: preview first, then send the seq it showed."""

from __future__ import annotations

from typing import Any


def undo(client: Any, headers: dict[str, str], table_id: str) -> Any:
    """Preview an undo, then make it pinned to the previewed input; the response."""
    seq = client.get(f"/api/tables/{table_id}/undo-preview", headers=headers).json()["input_seq"]
    return client.post(f"/api/tables/{table_id}/undo", headers=headers, json={"seq": seq or 0})


def correct(client: Any, headers: dict[str, str], table_id: str, text: str) -> Any:
    """Preview a correction, then make it pinned to the previewed input; the response."""
    seq = (
        client.post(
            f"/api/tables/{table_id}/correct-preview", headers=headers, json={"input": text}
        )
        .json()
        .get("input_seq")
    )
    return client.post(
        f"/api/tables/{table_id}/correct", headers=headers, json={"input": text, "seq": seq or 0}
    )
