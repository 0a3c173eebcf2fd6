"""The search tree of today's Algorithm X kernel, frozen.

Its node counts rated every shipped card until the ratings moved to the
bitboard search's measure (:mod:`ubongo_cp.rate`), and they still measure
the kernel, so any change to it must leave the search tree, the node counts
and the order of the solutions of an instance without multiplicities
exactly as they were. The expectations below were computed by the kernel of
commit c45318e (before multiplicities were added) and are compared here on
random instances, polyomino rectangles and every task of the shipped decks
(the deck tables' former ``dlx_nodes`` column, as a checksum).
"""

from __future__ import annotations

import importlib.util
import zlib
from pathlib import Path

import numpy as np
import pytest

from ubongo_cp.cover import build_instance
from ubongo_cp.pieces import Region, load_pieces
from ubongo_cp.solvers import dancing
from ubongo_cp.solvers.dancing import count, search

KERNELS = ["c", "numba"] if importlib.util.find_spec("ubongo_cp.solvers._dance") else ["numba"]


@pytest.fixture(autouse=True, params=KERNELS)
def kernel(request, monkeypatch):
    """Run every test of this module on each kernel (C, when built, and numba)."""
    monkeypatch.setattr(dancing, "KERNEL", request.param)
    return request.param


ROOT = Path(__file__).resolve().parent.parent

# (solutions, nodes, CRC-32 of the (solution, node count when found) sequence) of
# random_instance(seed) for seeds 0..399 and 1000..1149, searched with heartbeat=3.
FROZEN = """
    0,1,0; 16,29,2697094684; 0,0,0; 0,0,0; 3,8,2171626999; 0,0,0;
    3,6,3024684664; 0,1,0; 0,0,0; 41,54,4271644572; 0,0,0; 29,32,2153059344;
    2,11,2814603497; 1,12,2607940216; 1,0,2077607535; 2,6,2886360377; 12,25,4169845034; 0,0,0;
    0,0,0; 0,2,0; 0,0,0; 6,6,579876344; 0,2,0; 1,0,2077607535;
    19,35,1235677823; 17,33,2904183380; 1,7,3717817316; 1,0,2077607535; 2,4,391353304; 1,7,2781166287;
    39,43,3016524788; 3,8,2350943835; 0,6,0; 0,0,0; 3,3,624716480; 15,15,1036671348;
    6,13,461720075; 1,0,2077607535; 7,9,1795478039; 0,0,0; 0,0,0; 10,20,3195791525;
    1,0,2077607535; 1,4,1401590268; 1,6,3640728549; 0,6,0; 0,1,0; 1,0,2077607535;
    7,7,2136763849; 22,22,2562080114; 3,10,1695796216; 41,47,2159733581; 0,0,0; 0,9,0;
    4,6,3782841032; 1,8,1942165660; 4,6,1034776455; 1,0,2077607535; 4,13,410306436; 3,7,2105621799;
    3,3,2820698; 9,22,2682519530; 7,11,2012010088; 56,80,2493085939; 15,31,96312064; 17,23,628703318;
    0,0,0; 0,8,0; 4,8,2547664326; 1,0,2077607535; 2,4,4184422393; 0,0,0;
    0,1,0; 4,9,3780563189; 1,0,2077607535; 0,0,0; 2,3,1561283525; 1,0,2077607535;
    0,0,0; 1,0,2077607535; 0,0,0; 1,1,4161095556; 9,18,3433181620; 6,19,3379293563;
    0,0,0; 13,32,1003267843; 0,0,0; 0,0,0; 30,84,3541533805; 0,0,0;
    0,0,0; 0,2,0; 28,44,2658294887; 0,0,0; 25,25,3497722121; 0,0,0;
    9,19,1062195114; 1,0,2077607535; 22,26,318255924; 0,0,0; 0,1,0; 12,12,2792824168;
    1,4,1081733673; 0,0,0; 0,1,0; 11,15,1006007883; 0,1,0; 18,18,2862831062;
    1,0,2077607535; 1,3,2088537530; 6,21,594961316; 14,25,4224067947; 26,33,2795800691; 13,19,644780529;
    1,0,2077607535; 0,2,0; 9,12,2831243455; 1,0,2077607535; 8,10,3630982750; 3,6,2222038401;
    5,5,795142451; 9,11,621592635; 0,0,0; 1,0,2077607535; 3,11,3631024863; 0,0,0;
    1,1,4161095556; 11,24,1493376462; 15,33,1144091046; 0,0,0; 1,3,2714641442; 0,1,0;
    0,0,0; 0,0,0; 1,5,262694566; 26,37,3594201872; 0,2,0; 1,3,360322021;
    5,17,2299270461; 16,29,4175859166; 10,24,1993619763; 12,18,2968889317; 13,13,2203833622; 3,17,4261246206;
    6,6,3380753002; 0,0,0; 0,0,0; 1,0,2077607535; 7,7,658325858; 16,22,1559061473;
    2,7,3319157715; 25,60,2687136244; 0,0,0; 0,0,0; 9,9,529132061; 44,49,1320798876;
    0,0,0; 21,21,3817902855; 0,0,0; 0,0,0; 1,0,2077607535; 0,0,0;
    9,27,2390740782; 0,0,0; 0,0,0; 0,2,0; 0,0,0; 8,28,1902310453;
    1,1,2032149155; 0,1,0; 7,23,875928181; 0,2,0; 15,28,306230962; 0,5,0;
    0,0,0; 0,0,0; 1,0,2077607535; 0,1,0; 0,0,0; 0,0,0;
    10,10,288649988; 10,24,3350561095; 0,0,0; 9,28,3564210741; 2,6,3856236858; 14,19,4224126126;
    1,0,2077607535; 5,16,3033628764; 15,36,2872478090; 29,38,3301092249; 0,0,0; 1,0,2077607535;
    0,0,0; 7,21,1630982074; 0,0,0; 2,3,3496982406; 6,6,631657950; 0,1,0;
    18,20,2855147151; 17,33,2358193472; 1,0,2077607535; 0,0,0; 8,10,716905405; 15,15,750692067;
    14,30,4153455359; 1,2,4274477289; 9,18,1960320992; 3,3,2111331936; 0,6,0; 1,5,1503628819;
    14,17,979653997; 0,0,0; 1,0,2077607535; 7,7,1946318062; 9,9,16188667; 0,0,0;
    0,0,0; 44,76,117537171; 6,13,1190522881; 1,0,2077607535; 1,7,4062260009; 6,10,921438080;
    2,5,1358489529; 8,10,4178307063; 1,5,2620998186; 0,3,0; 1,5,2629720687; 0,1,0;
    2,7,3590538650; 3,4,1812310287; 13,35,535699460; 2,2,2356707091; 7,14,473316392; 1,1,4161095556;
    1,2,4230779450; 61,139,2043003363; 26,39,1931754626; 0,0,0; 0,0,0; 0,0,0;
    0,0,0; 0,0,0; 0,2,0; 0,0,0; 0,0,0; 0,0,0;
    0,1,0; 4,4,2321980823; 19,27,3379993605; 74,135,3999341488; 22,34,4262856262; 20,20,3952247313;
    8,17,170156126; 1,3,2685267323; 24,33,2208133213; 1,0,2077607535; 14,22,1064925700; 0,0,0;
    14,26,817297389; 2,2,2982777807; 0,0,0; 6,13,3114763274; 3,10,2730434171; 0,0,0;
    7,7,2048858043; 6,18,742094513; 0,0,0; 13,25,1447066148; 0,0,0; 0,3,0;
    18,29,1035899969; 0,1,0; 3,3,624716480; 4,4,513132410; 0,0,0; 1,0,2077607535;
    0,0,0; 14,14,315257726; 0,1,0; 5,13,2724669163; 6,8,4215017658; 44,78,362295123;
    1,3,2475096024; 1,0,2077607535; 6,6,792259468; 0,1,0; 5,5,2603296594; 2,7,192886050;
    8,8,2194980375; 0,1,0; 7,11,2079371026; 3,3,624716480; 0,0,0; 1,0,2077607535;
    1,1,4161095556; 12,16,2857205702; 4,4,2263323256; 27,33,3870527751; 2,4,1208503449; 0,0,0;
    1,0,2077607535; 2,3,2503773490; 10,27,735366490; 36,53,3156444951; 16,26,823970412; 12,15,1643227998;
    0,0,0; 0,0,0; 1,6,2510239616; 0,0,0; 0,0,0; 0,1,0;
    1,0,2077607535; 2,2,2056722471; 12,20,2650884681; 0,0,0; 1,0,2077607535; 1,0,2077607535;
    1,0,2077607535; 0,6,0; 5,5,68196341; 1,2,2947648616; 6,7,3702982096; 0,1,0;
    1,2,3984403501; 15,15,3518442833; 47,57,754235091; 8,15,1917990101; 6,6,3878280868; 18,45,1720452734;
    0,0,0; 13,13,2433531876; 6,12,3887718721; 6,6,2219864837; 0,0,0; 0,0,0;
    19,22,566253994; 3,3,2111331936; 10,18,3502681869; 16,16,4090527619; 1,0,2077607535; 0,0,0;
    0,5,0; 1,0,2077607535; 1,1,557747083; 0,0,0; 14,33,282491523; 0,0,0;
    17,23,1336507506; 0,1,0; 20,23,1485788741; 0,0,0; 0,0,0; 1,0,2077607535;
    0,0,0; 0,0,0; 0,0,0; 0,0,0; 3,13,3729350683; 0,0,0;
    10,29,1043039252; 29,62,1948525984; 0,0,0; 1,0,2077607535; 0,0,0; 1,0,2077607535;
    5,5,2603296594; 0,0,0; 0,0,0; 33,68,1000043002; 14,18,934635063; 0,0,0;
    0,7,0; 3,6,921432252; 0,0,0; 15,15,1229436538; 18,29,865840979; 0,0,0;
    9,15,4177996315; 3,7,1346449010; 4,9,2909881282; 2,6,946537181; 25,25,3497722121; 23,35,358821830;
    3,3,3553824244; 0,3,0; 22,39,3045540248; 5,9,1067847482; 0,2,0; 15,20,523902644;
    0,0,0; 2,2,3563509307; 0,0,0; 0,1,0; 11,11,3711529104; 20,37,3386711795;
    2,6,1230205694; 3,11,2163715605; 0,1,0; 0,0,0; 91,111,4205277921; 0,5,0;
    7,37,1651178078; 5,24,3732867383; 0,0,0; 439,705,2733072788; 0,0,0; 97,105,1835528627;
    10,26,530319519; 0,3,0; 0,8,0; 0,0,0; 0,0,0; 14,14,155518576;
    0,2,0; 0,3,0; 8,46,3459736166; 0,1,0; 0,0,0; 0,1,0;
    3,34,1784967054; 13,15,3673123629; 0,0,0; 40,88,746366084; 126,256,2542712863; 0,6,0;
    5,27,3130288751; 0,0,0; 100,249,2763194049; 0,0,0; 68,142,3594858654; 0,0,0;
    0,5,0; 0,2,0; 43,116,3536048389; 62,87,3617194638; 0,0,0; 42,106,3823787824;
    1,10,3706388218; 0,0,0; 1,2,360322021; 0,0,0; 0,0,0; 0,0,0;
    94,172,254320571; 0,0,0; 24,24,3102691891; 30,32,309906668; 9,101,2860801077; 0,4,0;
    222,381,2372437144; 1,0,2077607535; 0,0,0; 24,34,1657064049; 31,67,592952659; 8,25,3403322989;
    0,0,0; 0,0,0; 0,1,0; 0,1,0; 1,0,2077607535; 0,0,0;
    0,7,0; 0,4,0; 0,1,0; 0,0,0; 0,1,0; 1,0,2077607535;
    1,0,2077607535; 5,18,2478952515; 98,125,535181446; 0,0,0; 0,6,0; 112,196,3353067230;
    0,1,0; 0,0,0; 87,214,2963664910; 2,16,839812302; 2,27,4006157170; 1,0,2077607535;
    28,109,1270176993; 261,491,1492861029; 0,0,0; 0,1,0; 34,50,2869609253; 1,6,1101029668;
    0,0,0; 0,2,0; 9,9,3590389944; 121,168,914245480; 90,136,3847673423; 0,0,0;
    0,2,0; 0,0,0; 12,62,556165193; 21,21,3817902855; 1,9,1160573502; 23,23,3003046172;
    75,168,3420249955; 38,74,3876521128; 3301,4467,1423509232; 25,35,2479537394; 29,57,2817528188; 0,0,0;
    0,0,0; 0,6,0; 59,89,419973944; 0,2,0; 0,0,0; 13,66,434535834;
    6,22,2387454000; 1,38,3839060670; 35,53,882928832; 0,1,0; 93,141,16742762; 20,20,169876849;
    23,27,2482474538; 89,177,689701491; 0,9,0; 0,0,0; 0,0,0; 5,12,2116419964;
    0,1,0; 9,24,3009995169; 0,0,0; 4,20,1223687333; 65,102,2572953230; 8,8,3084710443;
    0,1,0; 0,0,0; 5,26,3774898462; 0,3,0; 25,66,3885550470; 0,0,0;
    25,61,3965038848; 0,0,0; 2,7,288136845; 40,127,1292244427; 106,233,560838500; 117,169,1994931212;
    0,0,0; 1,26,3718907701; 0,0,0; 37,67,2436006992; 0,2,0; 1,3,2032149155;
    3,4,2680435081; 156,233,2065045658; 1,0,2077607535; 0,1,0;
"""
SEEDS = list(range(400)) + list(range(1000, 1150))


def random_instance(seed):
    """A random exact-cover matrix: (options, n_items, n_secondary)."""
    rng = np.random.default_rng(seed)
    big = seed >= 1000
    n_items = int(rng.integers(1, 25 if big else 13))
    n_secondary = int(rng.integers(0, min(3, n_items) + 1))
    n_options = int(rng.integers(0, 50 if big else 26))
    opts = []
    for _ in range(n_options):
        k = int(rng.integers(1, min(5 if big else 4, n_items) + 1))
        opts.append(sorted(rng.choice(n_items, size=k, replace=False).tolist()))
    return opts, n_items, n_secondary


def fingerprint(it):
    """(solutions, nodes, CRC-32 of the solutions in order with the node count of each)."""
    crc = n = 0
    for o, nodes in it:
        if o is not None:
            n += 1
            crc = zlib.crc32(np.asarray(list(o) + [-1, nodes], dtype=np.int64).tobytes(), crc)
    return n, it.nodes, crc


def _csr(opts):
    return np.cumsum([0] + [len(o) for o in opts]), np.array([i for o in opts for i in o], dtype=np.int64)


def test_random_instances_match_the_frozen_tree():
    expected = [tuple(int(v) for v in row.split(",")) for row in FROZEN.replace("\n", " ").split(";")
                if row.strip()]
    assert len(expected) == len(SEEDS)
    for seed, want in zip(SEEDS, expected):
        opts, n_items, n_secondary = random_instance(seed)
        indptr, indices = _csr(opts)
        assert fingerprint(search(indptr, indices, n_items, n_secondary, heartbeat=3)) == want, seed
        # unit bounds given explicitly take the same path
        mult = np.array([(1, 1)] * (n_items - n_secondary) + [(0, 1)] * n_secondary).reshape(-1, 2)
        assert count(indptr, indices, n_items, n_secondary, multiplicity=mult)[:2] == want[:2], seed


@pytest.mark.parametrize("pieces, shape, optional, want", [
    ("pentominoes", (3, 20), False, (8, 32643, 2005257771)),
    pytest.param("pentominoes", (4, 15), False, (1472, 843851, 2537855478), marks=pytest.mark.slow),
    ("duel", (3, 5), True, (28, 349, 795713800)),
    ("duel", (4, 4), True, (176, 955, 619018275)),
    ("classic", (3, 5), True, (636, 4955, 1457069239)),
])
def test_polyomino_instances_match_the_frozen_tree(pieces, shape, optional, want):
    inst = build_instance(load_pieces(pieces).pieces, Region.rectangle(*shape), optional_pieces=optional)
    args = (inst.indptr, inst.indices, inst.n_items, inst.n_secondary)
    assert fingerprint(search(*args, heartbeat=1000)) == want
    assert count(*args)[:2] == want[:2]


# (tasks, CRC-32 of "card_file,face,count,nodes;..." in table order, total nodes) of each shipped deck: the
# deck tables' ``dlx_nodes`` column before the ratings moved to the bitboard search's nodes.
DECK_NODES = {"classic": (432, 3370576029, 6041), "duel": (360, 2899854917, 10284)}


@pytest.mark.parametrize("deck", ["classic", "duel"])
def test_shipped_decks_reproduce_their_node_counts(deck):
    import csv

    from ubongo_cp.cards import load_card
    from ubongo_cp.cover import task_instance

    folder = ROOT / "puzzles" / "decks" / deck
    with open(folder / "tasks.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    cards: dict = {}
    seq, total = [], 0
    for row in rows:
        card = cards.get(row["card_file"]) or cards.setdefault(row["card_file"], load_card(folder / row["card_file"]))
        inst = task_instance(card, int(row["face"]))
        n, nodes, done = count(inst.indptr, inst.indices, inst.n_items, inst.n_secondary)
        assert inst.multiplicity.max() == 1  # no shipped task uses a piece twice: Algorithm X's tree
        assert done and n == int(row["count"]), (deck, row["card_file"], row["face"])
        seq.append(f"{row['card_file']},{row['face']},{n},{nodes}")
        total += nodes
    assert (len(rows), zlib.crc32(";".join(seq).encode()), total) == DECK_NODES[deck]
