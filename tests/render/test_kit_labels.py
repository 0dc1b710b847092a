"""render/kit/labels: the shared city-name placement (Ticket to Ride and Santa Fe boards use it)."""
from __future__ import annotations

from render.kit.labels import MARK, NAME, TRACK, Label, Occupancy, Prices, Spots, label_size, place_names

SPOTS = Spots(side=6, above=6, below=6)
PRICES = Prices(rank=4.0, covered={TRACK: 1, MARK: 20, NAME: 40}, crowd=(30, 30))
W, H = 14 * 5, 16  # a name's box


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def place(points, size=(400, 300), prices=PRICES, paint=None):
    occupied = Occupancy(size)
    if paint:
        paint(occupied)
    labels = [Label(k, p, W, H, SPOTS) for k, p in points.items()]
    return place_names(occupied, labels, prices, pad=3), occupied


def test_the_spots_come_in_the_documented_order():
    x, y, w, h = 100.0, 50.0, 40.0, 10.0
    above_first = Spots(side=5, above=7, below=3, first="above", shift=0.5, diagonal=0.6,
                        corners=("ne", "se", "nw", "sw")).candidates(x, y, w, h)
    assert len(above_first) == 20
    assert above_first[:4] == [(105, 45), (55, 45), (80, 33), (80, 53)]  # right, left, above, below
    assert above_first[4:6] == [(90, 33), (90, 53)]  # slid: the point a quarter along the name
    assert above_first[12:16] == [(105, 40), (55, 40), (105, 50), (55, 50)]  # raised, lowered
    d = 5 * 0.6
    assert above_first[16:] == [(x + d, y - d - h), (x + d, y + d), (x - d - w, y - d - h), (x - d - w, y + d)]
    below_first = Spots(side=5, above=7, below=3, first="below", corners=("sw", "ne")).candidates(x, y, w, h)
    assert below_first[2:4] == [(80, 53), (80, 33)]
    assert below_first[16:] == [(x - 3.5 - w, y + 3.5), (x + 3.5, y - 3.5 - h)]


def test_an_empty_map_puts_the_name_right_of_its_point():
    out, occupied = place({"a": (100.0, 100.0)})
    (ax, ay), box = out["a"]
    assert box == (106, 92, 177, 109)
    assert (ax, ay) == (109, 100.5)  # the text's left-middle anchor, `pad` inside the halo
    assert occupied.image.getpixel((140, 100)) == NAME  # the chosen box is now taken


def test_a_marker_in_the_way_sends_the_name_elsewhere():
    out, _ = place({"a": (100.0, 100.0)}, paint=lambda o: o.disc((130, 100), 10, MARK))
    box = out["a"][1]
    assert box[2] <= 100  # the left spot: no marker pixel under it
    out, _ = place({"a": (100.0, 100.0)}, paint=lambda o: o.polygon([(106, 92), (140, 92), (140, 109), (106, 109)], TRACK))
    # Covering track costs 1 a pixel, far more than the 4 of going one spot down the list.
    assert out["a"][1][2] <= 100


def test_names_never_run_off_the_map():
    out, _ = place({"edge": (380.0, 100.0)})
    box = out["edge"][1]
    assert box[0] >= 4 and box[2] <= 400 - 6
    assert box[2] <= 380  # it went left, the only side with room


def test_two_close_points_get_names_that_do_not_overlap():
    out, _ = place({"a": (100.0, 100.0), "b": (104.0, 103.0)})
    assert not overlap(out["a"][1], out["b"][1])


def test_the_more_crowded_point_chooses_first():
    points = {"a": (100.0, 100.0), "b": (100.0, 101.0), "c": (100.0, 130.0)}
    # b has a and c within 30 px, a only b: b picks first and takes the right-hand spot.
    out, _ = place(points)
    assert out["b"][1][0] > 100 and out["a"][1][2] <= 100
    # With a window too small to see anyone, the given order stands: a picks first.
    out, _ = place(points, prices=Prices(rank=4.0, covered=PRICES.covered, crowd=(0.5, 0.5)))
    assert out["a"][1][0] > 100 and out["b"][1][0] <= 100 - W


def test_label_size_counts_the_halo():
    w1, h1 = label_size("Omaha", 17, 3)
    w2, h2 = label_size("Omaha City", 17, 3)
    w0, _ = label_size("Omaha", 17, 0)
    assert w2 > w1 and w1 == w0 + 6
    assert h1 == h2 == 17 + 6 + 2


def test_a_spot_off_the_map_is_taken_only_when_every_spot_is():
    """However much a spot on the map covers, a name never runs off the edge while one is left."""
    def wall(occupied):  # everything right of the point is names
        occupied.box((0, 0, 400, 300), NAME)
    dear = Prices(rank=4.0, covered={TRACK: 1, MARK: 20, NAME: 1000}, crowd=(30, 30))  # a name costs more than the edge once did
    out, _ = place({"a": (390.0, 150.0)}, prices=dear, paint=wall)  # right of the point runs off the map
    box = out["a"][1]
    assert box[2] <= 400 - 6


def test_a_name_nearer_another_point_is_taken_only_when_every_spot_is():
    """With own_nearest, a name never stands where it reads as the neighbour's."""
    occupied = Occupancy((400, 300))
    occupied.box((121, 80, 300, 120), MARK)  # right of `a` is taken: its name would go left...
    labels = [Label("a", (100.0, 100.0), W, H, SPOTS), Label("b", (40.0, 100.0), W, H, SPOTS)]
    plain = place_names(Occupancy((400, 300)), labels, PRICES, pad=3)
    out = place_names(occupied, labels, PRICES, pad=3, own_nearest=True)
    from render.kit.labels import box_distance
    for key, point in (("a", (100.0, 100.0)), ("b", (40.0, 100.0))):
        other = (40.0, 100.0) if key == "a" else (100.0, 100.0)
        assert box_distance(out[key][1], point) < box_distance(out[key][1], other)
    assert plain != out


def test_a_label_may_try_several_rings_of_spots():
    near, far = Spots(side=6, above=6, below=6), Spots(side=30, above=30, below=30)
    label = Label("a", (100.0, 100.0), W, H, (near, far))
    assert label.candidates() == [*near.candidates(100.0, 100.0, W, H), *far.candidates(100.0, 100.0, W, H)]
