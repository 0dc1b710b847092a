"""Expected digests of the seeded Steam games of tests/games/steam/golden.py (GAMES).

Produced once, before the speed work on Steam's rules and bots (branch steamfast, on top of
main at bd8eed0), with that code unchanged, by

    PYTHONPATH=. python -m tests.games.steam.golden

(the same output with PYTHONHASHSEED=123). They pin the behaviour: the same seed and moves
must give the same states, events, legal moves in the same order and results. Regenerate
only for a deliberate rules change, and say so in that commit.
"""

DIGESTS = {
    'northeast-basic-3p-seed11-random': {'moves': 229, 'checkpoints': ['ab06d5bb92230f2f', 'd388d7cf3445162f', '7cf000b12bd545af', '8db70af449711280', '62167e7790bd646c', '2886877425b06f6e', '3420ec318fea1b31', '29a7a5a131de947b', 'e4997cb8924020b0'], 'final': '9a883e29a70a65b868d2fd96db86fe00ccd60f69c6e6824756946cfe13a693c2'},
    'northeast-basic-4p-seed12-random': {'moves': 181, 'checkpoints': ['73a5a8f726756481', '634246a41b6364a4', 'd311e9398f774319', 'f2498ede6443d93b', '296eb60c2e453002', '8428fbc77de267a4', '96be4909f0cc3187'], 'final': 'db0a6268fa4ad7fa2ba0f3a9e51fa3c1f3b1cdb43985621642f94c24c849d4a6'},
    'northeast-standard-5p-seed13-random': {'moves': 216, 'checkpoints': ['93d8012fadb8abff', 'd7c1285e1f2406c7', '258f0bc21a97f8e1', 'a0143555ed8e1d1c', 'd94fae4e0b7c142b', '2791edf612dea352', '728effa6c5be7429', 'c97b3bc88c601b13'], 'final': '370d6590eda91b4a0c7b9a7d16163524d07dcadc576f5663db106a9f8457b0c9'},
    'rhine_ruhr-basic-5p-seed14-random': {'moves': 233, 'checkpoints': ['4cb77eb5a2aa82f5', '2beb6ffbfce5846c', '0593d60404dbee19', '5a9bb7c2928d2e86', '0d1a4df7c1d5ddd0', 'e1dfce0492654de7', '6cedbcff363780f9', 'b3c13122133d7146', '32514f8aadf33666'], 'final': '846d148ea832377179dcd2413197d63582c9df074ca2780f8099af6154d16977'},
    'rhine_ruhr-standard-3p-seed15-random': {'moves': 134, 'checkpoints': ['1e91954e0b68bb2c', '3f8e1c950bb142cf', 'a620c338f30910b4', '42233c5f433781c2', 'cb1805dffe54b447'], 'final': '0a160fa4d8cc8b406792679083bc2215973476afd93b7a2baa3273109dd2cfd8'},
    'rhine_ruhr-standard-4p-seed16-random': {'moves': 233, 'checkpoints': ['760f5b16be356afe', 'bdabaf19acbb6955', '7c690ffaebc4ea7a', '841ba411bef6c210', '4d5a870d73d57259', '1928b14c673c6287', '0731fae099bd8283', '6d29bd76256d3b70', 'b338514d3daeee72'], 'final': '92f1dd19f6444a6167f8e6f8ff370bde8d78bbc527260763da7ad541b670a3e4'},
    'northeast-basic-4p-seed17-builder+random-random': {'moves': 250, 'checkpoints': ['7e7adce7a98200aa', '54aa068262ecf559', '784e634a78617a21', 'af3cb7b4c006c0d2', 'eac1056a9893c431', 'dc653965f402aaa3', 'd7c8b88a309c210a', 'b2461c3df5bf258c', '21e532991c1d3c25', '09e084b539a8096e'], 'final': '4ad7d68ca1d6cf62e6a674416dd4a5a4ac536b15cfdf8513fbaee697a05eb5a6'},
    'rhine_ruhr-standard-5p-seed18-builder+random+builder': {'moves': 323, 'checkpoints': ['b40e8325b10e0f37', '1cfaecf66e998eb4', 'a8394a8cf4723573', '6f3768de08f0938f', '027d0b27e8c5d015', 'e0ec1bbf4eeaa034', '9d9da241299c8fd6', '544c54c548f103f2', '071b7ac8142cc000', 'a86a721e5b2aa7bf', 'a4191a9c345fa976', '75b83192a77ac85d'], 'final': '88ed6e9b0d3304661478e404c7e65281c25edd33e6af9c2cefb376207556477b'},
}
