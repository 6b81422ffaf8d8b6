"""(commands registered here as the stage is built)"""
