"""games/core/judged.py: a kept answer goes to the next move only if it is for the same inputs."""
from __future__ import annotations

import threading

from games.core.judged import LastJudgement


def test_the_kept_answer_is_taken_for_the_same_inputs_and_only_once():
    judged: LastJudgement[tuple, str] = LastJudgement()
    worked = []
    judged.keep((1, "a"), "kept")
    assert judged.take(lambda inputs: inputs == (1, "a"), lambda: worked.append(1) or "anew") == "kept"
    assert judged.take(lambda inputs: inputs == (1, "a"), lambda: worked.append(2) or "anew") == "anew"
    assert worked == [2]


def test_other_inputs_work_the_answer_out_anew_and_drop_the_kept_one():
    judged: LastJudgement[tuple, str] = LastJudgement()
    judged.keep((1,), "kept")
    assert judged.take(lambda inputs: inputs == (2,), lambda: "anew") == "anew"
    assert judged.take(lambda inputs: True, lambda: "anew") == "anew"


def test_another_thread_never_takes_this_threads_answer():
    judged: LastJudgement[tuple, str] = LastJudgement()
    judged.keep((1,), "kept")
    seen = []
    thread = threading.Thread(target=lambda: seen.append(judged.take(lambda inputs: True, lambda: "anew")))
    thread.start()
    thread.join()
    assert seen == ["anew"]
    assert judged.take(lambda inputs: True, lambda: "anew") == "kept"
