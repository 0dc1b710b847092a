"""Japanese end to end: localized commands in the synced payload, replies in the user's
language, public posts in the game's language."""
from __future__ import annotations

from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CHANNEL, GUILD, KEN, OTHER, YUKI, Harness, find_id


def ja(key: str, **params) -> str:
    return translate("ja", key, params)


async def test_japanese_end_to_end(harness: Harness, fake) -> None:
    h = harness
    # --- the synced commands carry Japanese names and descriptions
    commands = {c["name"]: c for c in fake.commands[GUILD]}
    game = commands["game"]
    assert game["name_localizations"] == {"ja": "ゲーム"}
    assert game["description_localizations"]["ja"] == ja("discord.cmd.game.desc")
    subs = {o["name"]: o for o in game["options"]}
    assert subs["new"]["name_localizations"] == {"ja": "新規"}
    assert subs["hand"]["name_localizations"] == {"ja": "手札"}
    new_opts = {o["name"]: o for o in subs["new"]["options"]}
    assert new_opts["game"]["description_localizations"]["ja"] == ja("discord.opt.game.desc")
    settings = {o["name"]: o for o in subs["settings"]["options"]}
    assert settings["deadline_action"]["choices"][0]["name_localizations"]["ja"] == ja("discord.choice.pass")
    assert commands["move"]["name_localizations"] == {"ja": "行動"}

    # --- a Japanese lobby (the server's language is English: the host picks Japanese for the
    # game's public posts): reply, lobby and buttons in Japanese
    assert new_opts["language"]["name_localizations"] == {"ja": "言語"}
    assert [c["name"] for c in new_opts["language"]["choices"]] == ["English", "日本語"]
    opened = await h.slash(KEN, "game new", {"game": "ticket_to_ride", "language": "ja"}, channel=OTHER,
                           locale="ja")
    assert opened.ephemeral and "ロビーを開きました" in opened.content
    lobby = h.lobby(OTHER)
    assert "ロビー" in lobby.embeds[0]["title"]
    labels = [lobby.component(c)["label"] for c in lobby.custom_ids]
    assert labels == ["参加", "退出", "ボットを追加", "開始"]
    await h.click(lobby, None, YUKI, label="参加", locale="ja")
    await h.click(lobby, None, KEN, label="開始", locale="ja")

    # --- public posts in the game's language (Japanese)
    post = h.last_post(OTHER)
    assert "ゲームが始まりました" in post.content and "残す目的地カードを選んでください" in post.content
    assert post.component(find_id(post, r"ry:\d+:\d+:cb:o:"))["label"] == "選ぶ…"  # secret: a private menu
    assert post.component(find_id(post, r"ry:\d+:\d+:hand"))["label"] == "手札を見る"
    assert "ゲーム #" in post.embeds[0]["footer"]["text"]

    # --- the private hand, the keep select and /move's choices in Japanese
    hand = await h.click(post, find_id(post, r"ry:\d+:\d+:hand"), YUKI, locale="ja")
    assert hand.ephemeral and "提示された目的地カード" in hand.content
    keep = hand.original.component(find_id(hand.original, r"ry:\d+:\d+:cg:.*"))
    assert "残しますか" in keep["placeholder"] and "点）" in keep["options"][0]["label"]
    choices = await h.autocomplete(KEN, "move", focused="move", value="", channel=OTHER, locale="ja")
    assert choices and all("を残す" in c["name"] for c in choices)
    done = await h.slash(KEN, "move", {"move": choices[0]["value"]}, channel=OTHER, locale="ja")
    assert done.ephemeral and done.content.startswith("✅ 完了")
    assert "枚残し" in h.last_post(OTHER).content

    # --- a refusal in Japanese
    again = await h.slash(KEN, "move", {"move": choices[0]["value"]}, channel=OTHER, locale="ja")
    assert again.ephemeral and again.content.startswith("⚠️ ") and "あなたの手番ではありません" in again.content

    # --- a Japanese user in an English game: replies in Japanese, posts stay English
    await h.new_game(ALICE, [BOB])
    status = await h.slash(KEN, "game status", locale="ja")
    assert status.ephemeral and "の手番を待っています" in status.content
    assert "has started" in h.last_post(CHANNEL).content
    rules = await h.slash(KEN, "game rules", locale="ja")
    assert rules.ephemeral and "**目的：**" in rules.original.embeds[0]["description"]
    fake.assert_clean()
