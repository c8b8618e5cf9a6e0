import Subprocess
