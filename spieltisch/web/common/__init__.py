"""What every room of the web surface shares and none owns: the server's settings, the checks on
text that enters it, secret tokens, refusals said in a page's language, the game's words in
that language, allowances and a table's house rules. Imports no other room."""
