from bot.memo import Bounded


def test_a_full_memo_empties_before_a_new_key_and_keeps_its_bound():
    memo = Bounded(2)
    memo[1] = "a"
    memo[2] = "b"
    memo[2] = "c"                      # a known key: nothing is forgotten
    assert memo == {1: "a", 2: "c"}
    memo[3] = "d"                      # full: emptied, then remembered
    assert memo == {3: "d"}
    assert memo.setdefault(4, "e") == "e" and memo.setdefault(4, "f") == "e"
    assert memo.setdefault(5, "g") == "g" and memo == {5: "g"}
