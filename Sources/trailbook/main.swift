import TrailbookCommands

await Trailbook.runAndExit()
