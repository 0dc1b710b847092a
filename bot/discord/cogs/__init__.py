"""Extensions loaded by RailyardBot.setup_hook (see bot.discord.bot.INITIAL_EXTENSIONS)."""
