"""Build data/santa_fe/map.json from real geography (run: python -m tools.games.santa_fe.mapgen).

The board is ours to design (SF-M1 … SF-M5). This script is the design record: city values,
which sections exist and how many spaces each has; river crossings and mountain lines are
computed from the real courses of the rivers and the crests of the ranges below (simplified
polylines of real coordinates, lon/lat), so the data file says where they are and the renderer
draws the same lines. The generated file is the source of truth that the game loads; edit here
and regenerate, never by hand.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

# Candidate places with real coordinates (GeoNames, CC BY 4.0), brought into the project's data.
PLACES = Path(__file__).resolve().parents[3] / "data" / "santa_fe" / "places.json"
OUT = Path(__file__).resolve().parents[3] / "data" / "santa_fe" / "map.json"

JA = {
    "Chicago": "シカゴ", "Milwaukee": "ミルウォーキー", "Kansas City": "カンザスシティ",
    "New Orleans": "ニューオーリンズ", "Minneapolis": "ミネアポリス", "Omaha": "オマハ",
    "Houston": "ヒューストン", "Dallas": "ダラス", "Oklahoma City": "オクラホマシティ",
    "Wichita": "ウィチタ", "San Antonio": "サンアントニオ", "Dodge City": "ダッジシティ",
    "Bismarck": "ビスマーク", "Amarillo": "アマリロ", "Pueblo": "プエブロ", "Denver": "デンバー",
    "Cheyenne": "シャイアン", "Santa Fe": "サンタフェ", "El Paso": "エルパソ",
    "Albuquerque": "アルバカーキ", "Billings": "ビリングス", "Rock Springs": "ロックスプリングス",
    "Helena": "ヘレナ", "Ogden": "オグデン", "Salt Lake City": "ソルトレイクシティ",
    "Tucson": "ツーソン", "Flagstaff": "フラッグスタッフ", "Phoenix": "フェニックス",
    "Pocatello": "ポカテッロ", "Boise": "ボイシ", "Spokane": "スポケーン", "Reno": "リノ",
    "Yuma": "ユマ", "Fresno": "フレズノ", "Sacramento": "サクラメント", "Seattle": "シアトル",
    "Tacoma": "タコマ", "Portland": "ポートランド", "San Francisco": "サンフランシスコ",
    "Oakland": "オークランド", "Los Angeles": "ロサンゼルス", "San Diego": "サンディエゴ",
}

# Where the board sets a Japanese name on two lines: Salt Lake City's, on one line, runs from its
# marker to Cheyenne's name with a tile between them and reads as one place.
BOARD_JA = {"Salt Lake City": ["ソルトレイク", "シティ"]}

VALUES = {
    2: ["Minneapolis", "Omaha", "Houston"],
    3: ["Dallas", "Oklahoma City", "Wichita", "San Antonio", "Dodge City", "Bismarck", "Amarillo"],
    4: ["Pueblo", "Denver", "Cheyenne", "Santa Fe", "El Paso"],
    5: ["Albuquerque", "Billings", "Rock Springs", "Helena", "Ogden", "Salt Lake City", "Tucson"],
    6: ["Flagstaff", "Phoenix", "Pocatello", "Boise", "Spokane", "Reno", "Yuma", "Fresno", "Sacramento"],
    7: ["Seattle", "Tacoma", "Portland", "San Francisco", "Oakland", "Los Angeles", "San Diego"],
}
STARTS = {"Chicago": ["UP", "SF"], "Milwaukee": ["GN"], "Kansas City": ["KP"], "New Orleans": ["SP"]}

RAILROADS = [
    {"code": "SF", "name": {"en": "Santa Fe", "ja": "サンタフェ鉄道"}, "color": "blue", "tiles": 32,
     "start": "Chicago", "special": "Houston"},
    {"code": "SP", "name": {"en": "Southern Pacific", "ja": "サザンパシフィック鉄道"}, "color": "white", "tiles": 30,
     "start": "New Orleans", "special": "Los Angeles"},
    {"code": "GN", "name": {"en": "Great Northern", "ja": "グレートノーザン鉄道"}, "color": "green", "tiles": 25,
     "start": "Milwaukee", "special": "Seattle"},
    {"code": "UP", "name": {"en": "Union Pacific", "ja": "ユニオンパシフィック鉄道"}, "color": "red", "tiles": 24,
     "start": "Chicago", "special": "Ogden"},
    {"code": "KP", "name": {"en": "Kansas Pacific", "ja": "カンザスパシフィック鉄道"}, "color": "yellow", "tiles": 17,
     "start": "Kansas City", "special": "Denver"},
]

# (a, b, spaces, double line?) — spaces roughly one per 200 km of real distance, 1..4.
SECTIONS = [
    ("Chicago", "Milwaukee", 1, False),
    ("Chicago", "Omaha", 4, True),
    ("Chicago", "Kansas City", 4, True),
    ("Chicago", "Minneapolis", 4, False),
    ("Milwaukee", "Minneapolis", 3, True),
    ("Minneapolis", "Omaha", 3, False),
    ("Minneapolis", "Bismarck", 4, False),
    ("Kansas City", "Omaha", 2, False),
    ("Kansas City", "Wichita", 2, False),
    ("Kansas City", "Dodge City", 3, False),
    ("Kansas City", "Oklahoma City", 3, False),
    ("New Orleans", "Houston", 3, True),
    ("New Orleans", "Dallas", 4, False),
    ("Houston", "Dallas", 2, False),
    ("Houston", "San Antonio", 2, False),
    ("Dallas", "San Antonio", 2, False),
    ("Dallas", "Oklahoma City", 2, False),
    ("Dallas", "Amarillo", 3, False),
    ("Wichita", "Oklahoma City", 2, False),
    ("Wichita", "Dodge City", 1, False),
    ("Oklahoma City", "Amarillo", 2, False),
    ("Dodge City", "Amarillo", 1, False),
    ("Dodge City", "Pueblo", 3, False),
    ("Omaha", "Cheyenne", 4, True),
    ("Omaha", "Denver", 4, False),
    ("Bismarck", "Billings", 4, False),
    ("Bismarck", "Cheyenne", 4, False),
    ("Cheyenne", "Denver", 1, False),
    ("Denver", "Pueblo", 1, False),
    ("Cheyenne", "Rock Springs", 3, False),
    ("Cheyenne", "Billings", 4, False),
    ("Denver", "Salt Lake City", 4, False),
    ("Pueblo", "Santa Fe", 2, False),
    ("Amarillo", "Albuquerque", 3, False),
    ("Santa Fe", "Albuquerque", 1, False),
    ("Albuquerque", "El Paso", 2, False),
    ("Albuquerque", "Flagstaff", 3, False),
    ("San Antonio", "El Paso", 4, False),
    ("El Paso", "Tucson", 3, False),
    ("Tucson", "Phoenix", 1, False),
    ("Tucson", "Yuma", 2, False),
    ("Phoenix", "Yuma", 2, False),
    ("Phoenix", "Flagstaff", 1, False),
    ("Flagstaff", "Los Angeles", 4, False),
    ("Yuma", "San Diego", 2, False),
    ("Yuma", "Los Angeles", 3, False),
    ("Los Angeles", "San Diego", 1, True),
    ("Los Angeles", "Fresno", 2, False),
    ("Fresno", "San Francisco", 2, False),
    ("Fresno", "Sacramento", 2, False),
    ("Sacramento", "Oakland", 1, True),
    ("Oakland", "San Francisco", 1, False),
    ("Sacramento", "Reno", 1, False),
    ("Reno", "Ogden", 4, False),
    ("Reno", "Boise", 4, False),
    ("Ogden", "Salt Lake City", 1, True),
    ("Rock Springs", "Ogden", 2, False),
    ("Rock Springs", "Salt Lake City", 2, False),
    ("Salt Lake City", "Flagstaff", 4, False),
    ("Ogden", "Pocatello", 1, False),
    ("Pocatello", "Boise", 2, False),
    ("Pocatello", "Helena", 3, False),
    ("Billings", "Helena", 2, False),
    ("Helena", "Spokane", 3, False),
    ("Boise", "Portland", 4, False),
    ("Boise", "Spokane", 3, False),
    ("Spokane", "Seattle", 3, False),
    ("Spokane", "Portland", 3, False),
    ("Seattle", "Tacoma", 1, False),
    ("Tacoma", "Portland", 2, False),
    ("Portland", "Sacramento", 4, False),
]

RIVERS = {
    "Mississippi": [(-93.26, 44.98), (-91.5, 44.0), (-91.0, 42.5), (-91.1, 40.8), (-90.2, 38.7), (-89.2, 37.0),
                    (-90.0, 35.1), (-91.1, 33.0), (-91.5, 31.3), (-90.6, 30.2), (-90.07, 29.93), (-89.3, 29.1)],
    "Missouri": [(-111.3, 47.5), (-108.5, 47.6), (-104.0, 48.0), (-101.4, 47.4), (-100.8, 46.8), (-100.4, 44.4),
                 (-97.4, 42.9), (-96.4, 42.5), (-95.92, 41.26), (-94.6, 39.12), (-92.2, 38.6), (-90.2, 38.8)],
    "Platte": [(-95.9, 41.0), (-98.3, 40.9), (-100.8, 41.1), (-102.3, 40.9), (-104.0, 40.4), (-104.95, 39.8),
               (-105.2, 39.3)],
    "Arkansas": [(-106.3, 39.2), (-104.61, 38.26), (-103.0, 38.0), (-100.02, 37.76), (-98.8, 38.35), (-97.34, 37.69),
                 (-95.99, 36.15), (-94.4, 35.4), (-92.29, 34.75), (-91.1, 33.9)],
    "Red": [(-101.0, 34.5), (-99.5, 34.4), (-97.5, 33.85), (-96.0, 33.8), (-94.0, 33.5), (-93.75, 32.5),
            (-92.3, 31.3), (-91.6, 31.0)],
    "Rio Grande": [(-106.6, 37.7), (-106.0, 36.5), (-106.65, 35.08), (-106.9, 34.0), (-106.49, 31.76), (-104.5, 29.6),
                   (-103.2, 29.0), (-101.0, 29.6), (-99.5, 27.5), (-97.2, 25.95)],
    "Colorado": [(-105.8, 40.3), (-107.3, 39.5), (-109.5, 38.9), (-110.0, 38.0), (-111.5, 36.9), (-112.5, 36.2),
                 (-114.0, 36.0), (-114.6, 35.1), (-114.5, 33.6), (-114.62, 32.73), (-115.0, 31.8)],
    "Snake": [(-110.7, 44.1), (-111.9, 43.5), (-112.45, 42.87), (-114.5, 42.6), (-116.0, 43.0), (-116.9, 43.8),
              (-116.9, 46.4), (-119.0, 46.2)],
    "Columbia": [(-117.6, 49.0), (-118.2, 48.0), (-119.5, 47.0), (-119.0, 46.2), (-121.0, 45.65), (-122.68, 45.6),
                 (-123.9, 46.2)],
}

RANGES = {
    "Rocky Mountains": [(-114.0, 49.0), (-112.7, 47.5), (-112.5, 46.0), (-111.0, 44.5), (-110.0, 43.2),
                        (-107.5, 42.3), (-106.2, 41.0), (-105.7, 40.0), (-105.6, 38.8), (-105.5, 37.5),
                        (-105.8, 36.3), (-105.9, 35.4)],
    "Wasatch": [(-111.6, 42.6), (-111.7, 41.5), (-111.65, 40.3), (-111.8, 39.3)],
    "Sierra Nevada": [(-121.3, 40.5), (-120.2, 39.3), (-119.2, 37.8), (-118.3, 36.5), (-118.5, 35.0), (-118.0, 34.3),
                      (-116.8, 34.1)],
    "Cascades": [(-121.0, 49.0), (-121.2, 47.5), (-121.6, 46.2), (-121.8, 45.3), (-122.0, 44.0), (-122.1, 42.5),
                 (-122.3, 41.4), (-121.3, 40.5)],
    "Peninsular Ranges": [(-116.8, 34.1), (-116.5, 33.3), (-116.3, 32.5)],
    "Bitterroot": [(-116.0, 48.0), (-114.8, 46.7), (-114.0, 45.5), (-113.0, 44.5)],
}

WATER = {
    "pacific_coast": [(-124.7, 49.0), (-124.7, 48.4), (-124.1, 46.9), (-124.0, 46.2), (-123.9, 45.5), (-124.1, 44.0),
                      (-124.5, 42.8), (-124.2, 41.0), (-123.8, 39.8), (-123.0, 38.3), (-122.5, 37.8), (-122.4, 37.2),
                      (-121.9, 36.6), (-121.0, 35.5), (-120.6, 34.6), (-119.5, 34.4), (-118.5, 34.0), (-118.0, 33.7),
                      (-117.3, 33.0), (-117.1, 32.5), (-116.4, 31.0), (-115.5, 29.5)],
    "puget_sound": [(-123.1, 48.2), (-122.6, 47.9), (-122.45, 47.6), (-122.5, 47.27), (-122.8, 47.1)],
    "sf_bay": [(-122.5, 37.8), (-122.35, 37.85), (-122.3, 37.95), (-122.1, 37.6), (-122.0, 37.45), (-122.2, 37.5),
               (-122.39, 37.7), (-122.5, 37.8)],
    "gulf_coast": [(-97.4, 25.9), (-97.4, 27.8), (-96.6, 28.4), (-95.0, 29.2), (-94.0, 29.7), (-92.0, 29.6),
                   (-90.5, 29.1), (-89.4, 29.0), (-89.0, 30.2), (-88.0, 30.5), (-86.0, 30.4)],
    "lake_michigan": [(-87.5, 41.6), (-87.8, 42.5), (-87.85, 43.1), (-87.6, 44.1), (-87.0, 45.3), (-85.6, 45.8),
                      (-84.8, 45.7), (-86.3, 44.0), (-86.5, 42.5), (-87.0, 41.7), (-87.5, 41.6)],
}

# Crossings closer than this to a city are the city standing on its river, not a crossing...
ENDPOINT = 0.05
# ...except for these cities on the far bank from most of their lines: leaving them crosses the river.
BANK_CROSSINGS = [
    ("New Orleans", "Mississippi", None),  # the city on the east bank, every line leaves westward
    ("Albuquerque", "Rio Grande", {"Flagstaff"}),  # east bank; the line west crosses
    ("El Paso", "Rio Grande", {"Tucson"}),
]

BOUNDS = {"lon_min": -125.5, "lon_max": -85.5, "lat_min": 25.0, "lat_max": 50.0}


def _km(a, b) -> float:
    lat = math.radians((a[1] + b[1]) / 2)
    dx = (a[0] - b[0]) * 111.32 * math.cos(lat)
    dy = (a[1] - b[1]) * 110.57
    return math.hypot(dx, dy)


def _cross(p, q, r, s):
    """Fraction t along p→q where it crosses segment r→s, or None."""
    d = (q[0] - p[0]) * (s[1] - r[1]) - (q[1] - p[1]) * (s[0] - r[0])
    if abs(d) < 1e-12:
        return None
    t = ((r[0] - p[0]) * (s[1] - r[1]) - (r[1] - p[1]) * (s[0] - r[0])) / d
    u = ((r[0] - p[0]) * (q[1] - p[1]) - (r[1] - p[1]) * (q[0] - p[0])) / d
    if -1e-9 <= t <= 1 + 1e-9 and -1e-9 <= u <= 1 + 1e-9:
        return min(max(t, 0.0), 1.0)
    return None


def crossings(p, q, line) -> list[float]:
    out = []
    for r, s in zip(line, line[1:]):
        t = _cross(p, q, r, s)
        if t is not None:
            out.append(t)
    return out


def build() -> dict:
    places = {p["name"]: p for p in json.loads(PLACES.read_text(encoding="utf-8"))["places"]}
    value_of = {name: v for v, names in VALUES.items() for name in names}
    cities = []
    for name in [*STARTS, *[n for v in sorted(VALUES) for n in VALUES[v]]]:
        p = places[name]
        cities.append({"name": name, "name_ja": JA[name], **({"board_ja": BOARD_JA[name]} if name in BOARD_JA else {}),
                       "lat": p["lat"], "lon": p["lon"], "value": value_of.get(name, 0),
                       "start": STARTS.get(name, [])})
    pos = {c["name"]: (c["lon"], c["lat"]) for c in cities}
    sections = []
    for a, b, spaces, double in SECTIONS:
        p, q = pos[a], pos[b]
        rivers: dict[int, list[str]] = {}
        for river, line in RIVERS.items():
            for t in crossings(p, q, line):
                if ENDPOINT < t < 1 - ENDPOINT:  # a city on the bank: see BANK_CROSSINGS
                    space = min(int(t * spaces), spaces - 1)
                    rivers.setdefault(space, [])
                    if river not in rivers[space]:
                        rivers[space].append(river)
        for city, river, toward in BANK_CROSSINGS:
            other = b if city == a else a
            if city in (a, b) and (toward is None or other in toward):
                space = 0 if city == a else spaces - 1
                rivers.setdefault(space, [])
                if river not in rivers[space]:
                    rivers[space].append(river)
        ranges = sorted({r for r, line in RANGES.items() if crossings(p, q, line)})
        halves = [""] + (["/2"] if double else [])
        for half in halves:
            sections.append({
                "code": f"{a}-{b}{half}", "a": a, "b": b, "spaces": spaces,
                "mountain": bool(ranges), "ranges": ranges,
                "rivers": [{"space": k, "rivers": v} for k, v in sorted(rivers.items())],
                "double": f"{a}-{b}" if double else None,
                "km": round(_km(p, q)),
            })
    return {
        "format": 1,
        "title": {"en": "Santa Fe — the American West", "ja": "サンタフェ — アメリカ西部"},
        "source": "Designed for Railyard from real geography (tools/games/santa_fe/mapgen.py): city coordinates "
                  "from data/santa_fe/places.json (GeoNames, CC BY 4.0); rivers and ranges as "
                  "simplified real courses and crests.",
        "bounds": BOUNDS,
        "cities": cities,
        "sections": sections,
        "railroads": RAILROADS,
        "rivers": [{"name": k, "points": [list(pt) for pt in v]} for k, v in RIVERS.items()],
        "ranges": [{"name": k, "points": [list(pt) for pt in v]} for k, v in RANGES.items()],
        "water": [{"name": k, "points": [list(pt) for pt in v]} for k, v in WATER.items()],
        "rules": {
            "players_min": 2, "players_max": 5, "hand_size": 5, "hand_size_engineer": 4,
            "initial_city_cards": 4, "double_turns": {"2": 3, "3": 5, "4": 7, "5": 9},
            "spurs_per_railroad": 2, "max_lines": 3, "engineers": 5, "engineer_price": 4,
            "money": 2, "money_advanced": 5, "spur_price": 1, "spur_price_advanced": 2,
            "city_bonus": 2, "special_bonus": 4, "cards_per_value": {"2": 1, "3": 1, "4": 2, "5": 2, "6": 2, "7": 2},
            "river_cost": 1, "mountain_cost": 1, "track_price": 1,
        },
    }


if __name__ == "__main__":
    data = build()
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    total = sum(s["spaces"] for s in data["sections"])
    print(f"{len(data['cities'])} cities, {len(data['sections'])} sections, {total} spaces")
    for s in data["sections"]:
        print(f"{s['code']:32} {s['spaces']} {s['km']:5}km {'M' if s['mountain'] else ' '} {s['ranges']} {s['rivers']}")
