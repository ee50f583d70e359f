"""One time format on every page, the console's ("2026-12-03 21:05"), in both languages: the
admin's own date columns and the console's would otherwise differ ("2026年12月3日 21:05")."""
