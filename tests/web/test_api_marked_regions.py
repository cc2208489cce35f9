"""The web's analysis reads a record's SQ[] region as `tengen analyze` does, and a region too large to be a
local game is declined at once (a marked empty 19x19 board ran for minutes past its time limit)."""
from __future__ import annotations

from conftest import wait_final
from fastapi.testclient import TestClient  # noqa: E402  (conftest skips the module without fastapi)

from tengen.web.app import create_app

# an edge diagram of a 9x9 board, its region marked on the record (7 points)
HANE_CONNECT_SGF = ("(;GM[1]FF[4]SZ[9]KM[0]RU[Chinese]AB[ag][bg][cg][dg]AW[eg][fg][gg][hg][ig]"
                    "AB[ah][bh][ch]AW[fh][gh][hh][ih]SQ[dh][eh][ai][bi][ci][di][ei])")
EMPTY_19_MARKED = "(;GM[1]FF[4]SZ[19]KM[7.5]SQ[aa:ss])"


def _analysis(client, sgf: str, **body) -> dict:
    rid = client.post("/api/records/paste", json={"sgf": sgf}).json()["id"]
    job = client.post("/api/analyses", json={"record": rid, "move": 0, **body}).json()
    assert wait_final(client, job["id"])["status"] == "done"
    return client.get(f"/api/analyses/{job['id']}/result").json()


def test_the_records_marked_region_is_the_region_analyzed(standin):
    with TestClient(create_app(evaluator=standin)) as client:
        report = _analysis(client, HANE_CONNECT_SGF)
    (region,) = report["regions"]
    assert sorted(region["points"]) == sorted("D2 E2 A1 B1 C1 D1 E1".split())


def test_a_marked_empty_board_is_declined_within_its_time_limit(standin):
    with TestClient(create_app(evaluator=standin)) as client:
        report = _analysis(client, EMPTY_19_MARKED, time_limit_s=5)
    (region,) = report["regions"]
    assert region["type"] == "unsolved" and "361 points" in region["declined"]
