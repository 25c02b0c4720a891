-- The files shared with a question, described as a JSON array of {name, type, size}: never their
-- content (nothing fetched is kept). NULL for messages without files, and for every earlier message.
ALTER TABLE messages ADD COLUMN attachments TEXT;
