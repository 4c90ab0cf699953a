"""The terminal client's screens, on Textual: the App (:mod:`.app`) over the session,
its screens (:mod:`.screens`), dialogs (:mod:`.dialogs`) and widgets (:mod:`.widgets`),
the messages the session's news become (:mod:`.messages`), the replay viewer, the style sheet.

It may import the core and the presentation (:mod:`craits.client.core`,
:mod:`craits.client.present`); neither may import it; only the command line does.
"""
