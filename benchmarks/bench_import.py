"""Import speed and memory of `deckquest cards import` on a large Scryfall-shaped file.

Writes a bulk file of N printings (default 100,000; three printings per card, one
of them Japanese, each object padded with the fields real Scryfall objects carry)
into a temporary directory, imports it into a temporary DECKQUEST_HOME and prints
printings per second, MB per second and the process's peak memory, before and
after the import. Run: python benchmarks/bench_import.py [--cards N]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

from deckquest.cards.userdb import UserCards, import_file

LEGALITIES = {fmt: "legal" for fmt in ("standard", "pioneer", "modern", "legacy", "vintage", "commander", "pauper")}


def printing(number: int) -> dict:
    """A printing shaped like Scryfall's default-cards objects (about 2.5 KB of JSON)."""
    card = number // 3
    uri = f"https://example.invalid/cards/{number}"
    return {
        "object": "card",
        "id": f"{number:08x}-0000-4000-8000-000000000000",
        "oracle_id": f"oracle-{card}",
        "lang": "ja" if number % 3 == 2 else "en",
        "name": f"Generated Card {card}",
        **({"printed_name": f"生成カード{card}"} if number % 3 == 2 else {}),
        "layout": "normal",
        "mana_cost": "{2}{G}{G}",
        "cmc": 4.0,
        "type_line": "Creature — Beast",
        "oracle_text": "Trample\nWhen this creature enters, you gain 3 life. " * 3,
        "power": "4",
        "toughness": "4",
        "colors": ["G"],
        "color_identity": ["G"],
        "keywords": ["Trample"],
        "legalities": LEGALITIES,
        "image_uris": {size: f"{uri}/{size}.jpg" for size in ("small", "normal", "large", "png", "art_crop", "border_crop")},
        "prices": {"usd": "0.10", "usd_foil": "0.50", "eur": "0.08", "tix": "0.01"},
        "related_uris": {site: f"{uri}/{site}" for site in ("gatherer", "tcgplayer", "edhrec")},
        "purchase_uris": {site: f"{uri}/buy/{site}" for site in ("tcgplayer", "cardmarket", "cardhoarder")},
        "set": "gen", "set_name": "Generated", "set_type": "expansion", "collector_number": str(number),
        "rarity": "common", "artist": "Nobody", "flavor_text": "Generated for a benchmark. " * 4,
        "games": ["paper", "mtgo"], "finishes": ["nonfoil", "foil"], "digital": False,
    }


def write_bulk_file(path: Path, count: int) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("[\n")
        for number in range(count):
            handle.write(json.dumps(printing(number), ensure_ascii=False))
            handle.write(",\n" if number < count - 1 else "\n")
        handle.write("]\n")


def peak_rss_mb() -> float:
    """The process's peak resident memory so far (ru_maxrss is bytes on macOS, KiB elsewhere)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=100_000, help="printings in the generated file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "default-cards.json"
        write_bulk_file(source, args.cards)
        size_mb = source.stat().st_size / 1e6
        before = peak_rss_mb()
        started = time.perf_counter()
        report = import_file(source, Path(folder) / "home")
        seconds = time.perf_counter() - started
        after = peak_rss_mb()
        database = UserCards.open_existing(Path(folder) / "home")
        assert database is not None and database.get("生成カード1").name == "Generated Card 1"
        print(f"file:          {args.cards} printings, {size_mb:.0f} MB")
        print(f"imported:      {report.imported} cards, skipped {sum(report.skipped.values())} ({dict(report.skipped)})")
        print(f"time:          {seconds:.1f} s")
        print(f"throughput:    {args.cards / seconds:,.0f} printings/s, {size_mb / seconds:.1f} MB/s")
        print(f"peak RSS:      {before:.0f} MB before the import, {after:.0f} MB after")
        print(f"database:      {report.database.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
