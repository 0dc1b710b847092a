-- The 'lapse' timer (see migrations/0009_lapse_timers.sql): answers that lapse when nobody gives
-- them within the game's reminder delay.
ALTER TABLE timers DROP CONSTRAINT timers_kind_check;
ALTER TABLE timers ADD CONSTRAINT timers_kind_check CHECK (kind IN ('reminder', 'deadline', 'bots', 'lapse'));
