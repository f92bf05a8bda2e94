"""The routes of the web platform, one router per area."""
