import TrailbookCommands

Trailbook.runAndExit()
