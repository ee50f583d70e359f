"""What every package may import and which imports none of them: the bounded database
connection, the service tokens' format, the admin's relabelled third-party apps."""
