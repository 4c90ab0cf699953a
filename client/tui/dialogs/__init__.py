"""The client's dialogs, modal screens that close once: questions (confirm, choose,
ask a name), a new table, the rules, the score sheet, the hand's summary, private
tables and the creator's menu, trusting a certificate, a problem with a retry.

It may import the widgets, the presentation and the core; the screens and the Apps import
it, never the widgets.
"""
