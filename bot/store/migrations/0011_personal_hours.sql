-- Each person's own hours (bot/sessions/hours.py): a time zone and quiet hours set once with
-- /me, for all their games. NULL is "not set": the person is never asleep to the bot and their
-- local time is not shown. quiet_start and quiet_end are whole local hours, set together.
ALTER TABLE user_prefs ADD COLUMN tz TEXT;
ALTER TABLE user_prefs ADD COLUMN quiet_start INTEGER CHECK (quiet_start BETWEEN 0 AND 23);
ALTER TABLE user_prefs ADD COLUMN quiet_end INTEGER CHECK (quiet_end BETWEEN 0 AND 23);
