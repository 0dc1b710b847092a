"""The Discord adapter — the only part of Railyard that imports discord.py.

    launcher      `railyard run` / `railyard sync` (settings, logging, exit codes)
    bot           RailyardBot: setup_hook, after_commit (outbox wake-up, bots), close
    cogs/game     /game new|status|hand|log|undo|settings|abandon|kick|rules|mine
    cogs/move     /move with autocomplete of the caller's legal moves
    cogs/timers   the once-a-minute loop: reminders and deadlines
    outbox        the dispatcher that delivers every public post: retries, giving up on
                  posts that can never go out (and telling the host), no duplicates
    outbox_messages  what each outbox row says (game posts, reminders, notices to the host)
    play          what each click and command does (moves, hand, claim, lobby, log)
    posts         how posts, status and lobby look (embeds, images rendered off the loop)
    replies       answering interactions inside 3 s, ephemerally (or updating the clicked
                  message), publicly only where the answer is the only way to the channel
    where         where each command may be installed and used; where the bot is no member
    boards        the board that follows each change of a game that lives by its answers
    errors        the one error handler
    ids           the custom-id scheme ry:<game>:<version>:<verb>[:<arg>]
    text          catalog helpers, Discord text limits, the command translator
    ui/           components (DynamicItems) and each game's buttons and embeds

Who posts what: interaction responses are private (ephemeral) or update the clicked
message; the lobby is sent to the channel; every game post (start, moves — bots' too —,
undo, kick, abandon, the final result, reminders) is an outbox row written by the sessions
service in the move's own transaction and delivered only by the dispatcher. So a post is
never shown twice; one that failed is retried, and one that can never be delivered (no
permission, channel deleted, a post that cannot be drawn) is given up after a few attempts,
with the game's host told why, so it never holds the game's later posts back.

Where the bot is no member (a group DM, a server only its members installed Railyard to) it
may only answer interactions: a game there lives by its answers (bot/discord/where.py,
boards.py). Its lobby is the answer to /game new, each change is answered and followed by the
board, and its outbox rows post nothing in the channel (reminders and the result go by DM).
"""
