"""benchdb.py: the rows the synthetic benchmark databases write
(make-matchdb.py, add-matchdb.py, make-lkmldb.py), as onlist's schema
names them."""

MESSAGES = ("INSERT INTO messages(msgid, list, date, from_name, from_addr,"
            " subject, in_reply_to, refs, has_patch, patch_id)"
            " VALUES(?,?,?,?,?,?,?,?,?,?)")
MESSAGE_PATCH = ("INSERT INTO message_patch(msgid, repaired_id, fp, words,"
                 " files, added, removed) VALUES(?,?,?,?,?,?,?)")
COMMITS = ("INSERT INTO commits(sha, author_name, author_email, author_date,"
           " committer_name, committer_email, commit_date, subject, body,"
           " body_empty, files, patch_id) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)")
COMMIT_PATCH = ("INSERT INTO commit_patch(sha, alt_histogram, alt_patience,"
                " alt_minimal, fp, words, files, added, removed)"
                " VALUES(?,?,?,?,?,?,?,?,?)")
LANDING = ("INSERT OR REPLACE INTO landing(sha, landed_date, merge_sha,"
           " merge_subject) VALUES(?,?,?,?)")
