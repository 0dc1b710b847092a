"""The live-board plan (bot/sessions/live.py): new message or edit, and who is pinged."""
from bot.sessions.live import LiveBoard, PostFacts, plan, posted, skipped
from games.core import Event


def post(row, waiting, kind="move", finished=False, key="ev"):
    return PostFacts(row_id=row, kind=kind, waiting_user_ids=list(waiting), finished=finished,
                     events=[Event(key=f"{key}{row}")])


def test_start_is_a_new_message_pinging_everyone_waited_on():
    step, live = plan(LiveBoard(), [post(1, ["a", "b"], kind="start")])
    assert step.action == "new" and step.ping_user_ids == ["a", "b"] and step.draw_board
    assert step.strip_message_id is None and live.message_id is None
    assert posted(live, "m1").message_id == "m1"


def test_a_step_inside_a_turn_edits_without_pinging_or_redrawing():
    live = LiveBoard(message_id="m1", waiting_user_ids=["a"], lines=[Event(key="old")])
    step, after = plan(live, [post(2, ["a"])])
    assert step.action == "edit" and not step.ping_user_ids and not step.draw_board
    assert [e.key for e in step.lines] == ["old", "ev2"] and after.message_id == "m1"


def test_the_next_person_gets_a_new_message_and_the_old_one_loses_its_buttons():
    live = LiveBoard(message_id="m1", waiting_user_ids=["a"])
    step, after = plan(live, [post(2, []), post(3, []), post(4, ["b"])])  # a moved, two bots, then b
    assert step.action == "new" and step.ping_user_ids == ["b"] and step.strip_message_id == "m1"
    assert step.rows == [2, 3, 4] and step.last_row == 4
    assert [e.key for e in step.lines] == ["ev2", "ev3", "ev4"], "the new message tells what happened since"
    assert after.message_id is None and after.waiting_user_ids == ["b"]


def test_the_same_person_waited_on_again_after_bots_is_pinged_again():
    live = LiveBoard(message_id="m1", waiting_user_ids=["a"])
    step, _ = plan(live, [post(2, []), post(3, []), post(4, ["a"])])
    assert step.action == "new" and step.ping_user_ids == ["a"]


def test_one_player_done_with_a_simultaneous_choice_edits():
    live = LiveBoard(message_id="m1", waiting_user_ids=["a", "b"])
    step, after = plan(live, [post(2, ["b"])])
    assert step.action == "edit" and not step.ping_user_ids and after.waiting_user_ids == ["b"]


def test_someone_newly_waited_on_who_already_moved_is_not_pinged():
    live = LiveBoard(message_id="m1", waiting_user_ids=["a", "c"])
    step, _ = plan(live, [post(2, ["b", "c"]), post(3, ["c"])])  # a moved, b was waited on and moved too
    assert step.action == "edit" and step.ping_user_ids == []
    step, _ = plan(live, [post(2, ["b"]), post(3, ["a"])])  # a waited on again after b's move
    assert step.action == "new" and step.ping_user_ids == ["a"]


def test_the_end_is_a_new_final_message_and_closes_the_board():
    live = LiveBoard(message_id="m1", waiting_user_ids=["a"])
    step, after = plan(live, [post(2, [], finished=True)])
    assert step.action == "new" and step.final and step.draw_board and step.strip_message_id == "m1"
    assert after.closed
    again, _ = plan(after, [post(3, ["a"], kind="undo")])
    assert again.action == "new" and again.strip_message_id is None, "a closed message is never edited"


def test_a_missing_live_message_means_a_new_one():
    step, _ = plan(LiveBoard(waiting_user_ids=["a"]), [post(2, ["a"])])
    assert step.action == "new" and step.ping_user_ids == []


def test_after_a_post_given_up_whoever_it_newly_waited_on_is_pinged_next():
    live = LiveBoard(message_id="m1", waiting_user_ids=["a"], lines=[Event(key="old")])
    # the post given up: a moved, the game waited on b, who was never pinged (nor shown it)
    after = skipped(live, post(2, ["b"]))
    assert after.message_id == "m1" and [e.key for e in after.lines] == ["old"]
    # b moved, and the game waits on a again: a's turn came round, a new message pings her
    step, _ = plan(after, [post(3, ["a"])])
    assert step.action == "new" and step.ping_user_ids == ["a"] and step.strip_message_id == "m1"
    assert plan(live, [post(3, ["a"])])[0].action == "edit", "what the board would do, not knowing"
    # or b is still waited on: b is pinged
    step, _ = plan(after, [post(3, ["b"])])
    assert step.action == "new" and step.ping_user_ids == ["b"]


def test_a_post_given_up_inside_a_turn_leaves_the_next_step_an_edit():
    live = LiveBoard(message_id="m1", waiting_user_ids=["a", "b"])
    after = skipped(live, post(2, ["a", "b"]))  # still waiting on both: nobody newly waited on
    step, _ = plan(after, [post(3, ["a"])])
    assert step.action == "edit" and step.ping_user_ids == []


def test_after_a_row_that_cannot_be_read_everyone_waited_on_is_pinged():
    live = LiveBoard(message_id="m1", waiting_user_ids=["a"])
    step, _ = plan(skipped(live, None), [post(3, ["a"])])
    assert step.action == "new" and step.ping_user_ids == ["a"]
