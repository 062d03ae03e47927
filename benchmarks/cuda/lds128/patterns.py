# Writes pats.txt (one pattern of 32 lane entry indices per line) and labels.txt for lds128.cu: rule probes,
# back-projection footprints (lane -> pixel layouts at angles 0..177 deg) and random small-range patterns.
# Pair the results with: paste -d"|" res.txt labels.txt
import math, random
random.seed(11)
pats = []  # (label, 32 ints)
def add(label, p): pats.append((label, [int(v) for v in p]))
# structured probes
add("lane", range(32)); add("lane%8", [l % 8 for l in range(32)]); add("uniform", [0]*32)
add("lane/2", [l//2 for l in range(32)]); add("lane/4", [l//4 for l in range(32)])
for w in range(1, 9):  # each quarter reads entries 0..w-1 (spread over lanes), all quarters same
    add(f"q reads 0..{w-1} same all q", [(l % 8) * w // 8 for l in range(32)])
for w in range(1, 9):  # q0 reads w distinct; others read entry 0..
    add(f"q0 reads {w} distinct, q1-3 uniform 0", [((l % 8) * w // 8) if l < 8 else 0 for l in range(32)])
for w in range(1, 9):  # quarter q reads w distinct starting at 8q (same banks across quarters!) no: start at w*q
    add(f"q reads {w} distinct, start w*q", [(l % 8) * w // 8 + w * (l // 8) for l in range(32)])
# permutations within a quarter of 8 distinct
add("q reads 0..7 reversed", [7 - (l % 8) for l in range(32)])
add("q0 0..7, q1 0, q2 0..7, q3 0", [(l % 8) if (l // 8) % 2 == 0 else 0 for l in range(32)])
add("q0 0..7 only, rest 1000", [(l % 8) if l < 8 else 1000 for l in range(32)])
add("h0 16 lanes 0..7 (l%8), h1 uniform", [(l % 8) if l < 16 else 0 for l in range(32)])
add("h0 0..15 distinct lane, h1 uniform", [l if l < 16 else 0 for l in range(32)])
add("q0 0..3 q1 1028..1031", [(l % 8) // 2 + (1028 if (l // 8) % 2 else 0) for l in range(32)])
add("q0 0..3 q1 12..15", [(l % 8) // 2 + (12 if (l // 8) % 2 else 0) for l in range(32)])
# fp layouts over angles
def zsq(l): return ((l & 1) | ((l >> 1) & 2), ((l >> 1) & 1) | ((l >> 2) & 2))
lays = {}
lays["A2zorder"] = [(zsq(l & 15)[0] + (l >> 4) * 4, zsq(l & 15)[1], 0) for l in range(32)]
lays["row8x4"] = [(l & 7, l >> 3, 0) for l in range(32)]
lays["row32"] = [(l, 0, 0) for l in range(32)]
lays["col4x8"] = [(l >> 3, l & 7, 0) for l in range(32)]
lays["S1"] = [((l & 7) & 3, ((l & 7) >> 2) + 2 * (l >> 4), (l >> 3) & 1) for l in range(32)]
lays["S3"] = [(((l & 7) & 1) + 2 * (l >> 4), (l & 7) >> 1, (l >> 3) & 1) for l in range(32)]
lays["S6 2x2 quads split"] = [((l & 1) + 2 * ((l >> 3) & 1), ((l >> 1) & 1) + 2 * (l >> 4), (l >> 2) & 1) for l in range(32)]
lays["S7 q=2x2 L+2x2 H"] = [((l & 1) + 2 * ((l >> 3) & 3), ((l >> 1) & 1), (l >> 2) & 1) for l in range(32)]
for name, lay in lays.items():
    for deg in range(0, 180, 3):
        th = math.radians(deg + 0.37); c, s = math.cos(th), math.sin(th); off = 16 + random.random()
        add(f"fp {name} {deg}", [math.floor(x * c - y * s + off) + (1028 if pl else 0) for (x, y, pl) in lay])
# random small-range patterns
for i in range(250):
    w = random.randint(2, 12)
    add("rand", [random.randrange(w) + (1028 if random.random() < 0.0 else 0) for l in range(32)])
with open("pats.txt", "w") as f:
    for lab, p in pats: f.write(" ".join(map(str, p)) + "\n")
with open("labels.txt", "w") as f:
    for lab, p in pats: f.write(lab + "\n")
print(len(pats))
