"""A team's upload as files, with no Django: a zip or a file checked and unpacked without
running or parsing the team's code in this process (uploads), its Python compiled in a
capped child (source_check)."""
