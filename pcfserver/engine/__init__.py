"""The command engine: decoded command messages in, response messages out (sans-IO).

Interface used by the server, the CLI and the tests (the engine never imports trio):

    engine = open_engine(data_dir=None | Path, qmgr="QM1", ccsid=819)
    responses = engine.execute(command)            # list[Message], numbered, Control LAST on the last
    answers = engine.execute_batch(commands)       # one list per command, in order; the whole batch is
                                                   # committed durably in one transaction before return,
                                                   # each command applied whole or not at all
    engine.close()
"""
