-- Each person's own hours (see migrations/0011_personal_hours.sql).
ALTER TABLE user_prefs ADD COLUMN tz TEXT;
ALTER TABLE user_prefs ADD COLUMN quiet_start INTEGER CHECK (quiet_start BETWEEN 0 AND 23);
ALTER TABLE user_prefs ADD COLUMN quiet_end INTEGER CHECK (quiet_end BETWEEN 0 AND 23);
ALTER TABLE user_prefs ADD CONSTRAINT user_prefs_quiet_both
    CHECK ((quiet_start IS NULL) = (quiet_end IS NULL) AND (quiet_start IS NULL OR quiet_start <> quiet_end));
