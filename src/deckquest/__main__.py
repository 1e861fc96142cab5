from deckquest.cli import main

main()
