# several components, with repeats, reversed repeats and self loops
# component A: triangle 0 1 2 (plus a self loop on 1)
0	1
1	2
2	0
1	1
1	0
0	1

# component B: path 3-4-5-6, written out of order
5	6
3	4
4	5
6	5
# component C: star centred on 10 with leaves 7 8 9 11 12
10	7
8	10
10	9
11	10
10	12
10	12
# component D: 13-14, and 15 alone with a self loop
13	14
15	15
