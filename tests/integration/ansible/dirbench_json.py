# A stdout callback for ansible-playbook that prints the whole run as one JSON document at its end, in the shape of
# the community.general/ansible.posix "json" callback ({"plays": [{"tasks": [{"task": {"name"}, "hosts": {HOST:
# result}}]}]}), which ansible-core alone does not ship. tst_agents sets ANSIBLE_CALLBACK_PLUGINS to this folder
# and ANSIBLE_STDOUT_CALLBACK=dirbench_json.
import json

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = """
    name: dirbench_json
    type: stdout
    short_description: the whole run as one JSON document (the plays, their tasks, each host's result)
    description: The shape of the "json" callback of the Ansible collections, for tests that run ansible-core alone.
"""


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "stdout"
    CALLBACK_NAME = "dirbench_json"

    def __init__(self):
        super().__init__()
        self.plays = []

    def v2_playbook_on_play_start(self, play):
        self.plays.append({"play": {"name": play.get_name()}, "tasks": []})

    def v2_playbook_on_task_start(self, task, is_conditional):
        self.plays[-1]["tasks"].append({"task": {"name": task.get_name()}, "hosts": {}})

    def _result(self, result, **extra):
        r = dict(result._result)
        r.update(extra)
        self.plays[-1]["tasks"][-1]["hosts"][result._host.get_name()] = r

    def v2_runner_on_ok(self, result, **kwargs):
        self._result(result)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._result(result, failed=True)

    def v2_runner_on_skipped(self, result):
        self._result(result, skipped=True)

    def v2_runner_on_unreachable(self, result):
        self._result(result, unreachable=True)

    def v2_playbook_on_stats(self, stats):
        hosts = sorted(stats.processed.keys())
        summary = {h: stats.summarize(h) for h in hosts}
        self._display.display(json.dumps({"plays": self.plays, "stats": summary}, default=str))
