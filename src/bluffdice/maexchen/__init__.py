"""The Mäxchen UDP contest: bots of the classic contest servers play Mia at our tables.

It is its own package because it shares nothing with the bot programs of `protocol`
but the table: `wire` reads and writes the text lines, `server` hosts the rounds,
`house` puts the built-in bots in as UDP clients, `contest` and `standings` run and
rank a contest, `load` swarms and fuzzes the server for the tests and the benchmark.
"""
