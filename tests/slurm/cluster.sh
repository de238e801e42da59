# tests/slurm/cluster.sh: a single-node Slurm cluster of the test's own, for
# the tests that submit real jobs (sourced by sh; POSIX shell).
#
#   . tests/slurm/cluster.sh
#   slurm_missing || { echo "skipped: $slurm_why"; ...; }   # packages, root
#   trap 'slurm_stop' EXIT
#   slurm_start "$tmp/cluster" || { echo "$slurm_why"; exit 1; }
#   sbatch --wait ...          # SLURM_CONF points at the cluster's slurm.conf
#   slurm_stop                 # daemons, jobs and the cluster's files gone
#
# Everything lives under the directory given to slurm_start: its own munge
# key, socket and munged; slurm.conf, state, spool and logs; slurmctld and
# slurmd run as root (SlurmUser=root) from there, on two free ports of the
# loopback. Nothing under /etc, /run or /var is written, nor the system's
# slurm.conf or munge key used, so it runs beside a system Slurm or munge,
# and two clusters can run side by side. It needs no systemd and no cgroups
# (containers often have neither): proctrack/linuxproc finds a job's
# processes by their parents, task/none, no accounting. The node has this
# machine's CPUs, sockets and memory as `slurmd -C` reports them.
# Written for shells without set -e (as the project's tests are).
#
# Waits are bounded: slurm_start gives up after SLURM_START_SECONDS (60) with
# the daemons' last log lines in $slurm_why; slurm_stop ends what it started
# by process id (TERM, then KILL after 10 s), never by name.
#
# Variables set by slurm_start: SLURM_CONF (exported), slurm_dir, slurm_node
# (the node's name), slurm_partition, slurm_start_seconds (how long the start
# took); slurm_why holds the reason of the last failure.

slurm_dir=
slurm_node=mbnode
slurm_partition=mbtest
slurm_why=
slurm_pids=

# slurm_missing: 0 (true) when this cluster cannot run here, with the reason
# in slurm_why: a program missing (the packages: slurmctld slurmd
# slurm-client munge) or not root (the daemons run as root).
slurm_missing() {
    for p in slurmctld slurmd sbatch squeue scontrol sinfo munged mungekey; do
        if ! command -v "$p" >/dev/null 2>&1; then
            slurm_why="no $p (Debian packages: slurmctld slurmd slurm-client munge)"
            return 0
        fi
    done
    if [ "$(id -u)" != 0 ]; then
        slurm_why="not root (slurmctld and slurmd run as root here)"
        return 0
    fi
    return 1
}

# _slurm_free_port: prints a TCP port nobody listens on, from 20000-59999
_slurm_free_port() {
    _n=0
    while [ $_n -lt 200 ]; do
        _p=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 40000))
        if ! ss -Hltn "sport = :$_p" 2>/dev/null | grep -q .; then
            case " $_slurm_ports " in
            *" $_p "*) ;;
            *)
                _slurm_ports="$_slurm_ports $_p"
                echo "$_p"
                return 0
                ;;
            esac
        fi
        _n=$((_n + 1))
    done
    return 1
}

# _slurm_since T0 [DECIMALS]: seconds since T0 (a date +%s.%N)
_slurm_since() {
    echo "$1 $(date +%s.%N) ${2:-0}" | awk '{ printf "%.*f", $3, $2 - $1 }'
}

# _slurm_fail MESSAGE: slurm_why = MESSAGE and the logs' last lines
_slurm_fail() {
    slurm_why="$1"
    for _l in munged.log slurmctld.log slurmd.log; do
        if [ -s "$slurm_dir/log/$_l" ]; then
            slurm_why="$slurm_why
--- $_l (last lines):
$(tail -n 8 "$slurm_dir/log/$_l")"
        fi
    done
    return 1
}

# slurm_start DIR: makes DIR (it must not exist), starts munged, slurmctld
# and slurmd there, and returns when the node takes jobs (1 on failure,
# with the reason in slurm_why; call slurm_stop in either case).
slurm_start() {
    _t0=$(date +%s.%N)
    # an outer Slurm's variables (a test run inside a job) must not reach
    # this cluster's commands: SLURM_*, SBATCH_*, SQUEUE_*, SALLOC_*, SRUN_*
    for _v in $(env | sed -n 's/^\(\(SLURM\|SBATCH\|SQUEUE\|SALLOC\|SRUN\|SINFO\|SCONTROL\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
        unset "$_v"
    done
    slurm_dir=$1
    _slurm_ports=
    mkdir "$slurm_dir" || {
        slurm_why="cannot make $slurm_dir"
        return 1
    }
    slurm_dir=$(cd "$slurm_dir" && pwd)
    mkdir -p "$slurm_dir/etc" "$slurm_dir/state" "$slurm_dir/spool" \
        "$slurm_dir/log" "$slurm_dir/run" "$slurm_dir/munge" "$slurm_dir/tmp"
    # munged wants its socket's directory open to all (execute), the key
    # readable by root alone
    chmod 755 "$slurm_dir/munge"

    # munge: a new key, its own socket, in the foreground (no fork: its pid
    # is the one kept)
    mungekey --create --bits=1024 --keyfile="$slurm_dir/munge/munge.key" 2>"$slurm_dir/log/mungekey.log" ||
        _slurm_fail "mungekey failed: $(cat "$slurm_dir/log/mungekey.log")" || return 1
    chmod 400 "$slurm_dir/munge/munge.key"
    munged --foreground --force --socket="$slurm_dir/munge/munge.socket" \
        --key-file="$slurm_dir/munge/munge.key" --pid-file="$slurm_dir/run/munged.pid" \
        --log-file="$slurm_dir/log/munged.log" --seed-file="$slurm_dir/munge/munged.seed" \
        >>"$slurm_dir/log/munged.log" 2>&1 &
    slurm_pids="$slurm_pids $!"

    _ctld_port=$(_slurm_free_port) && _slurmd_port=$(_slurm_free_port) ||
        _slurm_fail "no free port found" || return 1
    _host=$(uname -n | cut -d. -f1)
    # the node as slurmd sees this machine (CPUs, sockets, cores, threads,
    # memory), under the cluster's node name
    _hw=$(slurmd -C 2>/dev/null | sed -n 's/^NodeName=[^ ]* //p' | head -n 1)
    [ -n "$_hw" ] || _hw="CPUs=$(nproc)"
    : >"$slurm_dir/etc/plugstack.conf"
    cat >"$slurm_dir/etc/slurm.conf" <<EOF
# a single-node cluster of tests/slurm/cluster.sh, in $slurm_dir
ClusterName=marubatsu-test
SlurmctldHost=$_host(127.0.0.1)
SlurmctldPort=$_ctld_port
SlurmdPort=$_slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$slurm_dir/munge/munge.socket
StateSaveLocation=$slurm_dir/state
SlurmdSpoolDir=$slurm_dir/spool
SlurmctldPidFile=$slurm_dir/run/slurmctld.pid
SlurmdPidFile=$slurm_dir/run/slurmd.pid
SlurmctldLogFile=$slurm_dir/log/slurmctld.log
SlurmdLogFile=$slurm_dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
TmpFS=$slurm_dir/tmp
PlugStackConfig=$slurm_dir/etc/plugstack.conf
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
ReturnToService=2
SlurmdParameters=config_overrides
SlurmdTimeout=60
MessageTimeout=20
KillWait=5
MinJobAge=600
NodeName=$slurm_node NodeAddr=127.0.0.1 NodeHostname=$_host $_hw State=UNKNOWN
PartitionName=$slurm_partition Nodes=$slurm_node Default=YES MaxTime=INFINITE State=UP
EOF
    SLURM_CONF=$slurm_dir/etc/slurm.conf
    export SLURM_CONF

    # the munge socket before the daemons that need it
    _n=0
    until [ -S "$slurm_dir/munge/munge.socket" ]; do
        _n=$((_n + 1))
        [ $_n -gt 100 ] && { _slurm_fail "munged did not start within 10 s" || return 1; }
        sleep 0.1
    done

    MB_SLURM_CLUSTER=$slurm_dir slurmctld -D -f "$SLURM_CONF" >>"$slurm_dir/log/slurmctld.out" 2>&1 &
    slurm_pids="$slurm_pids $!"
    MB_SLURM_CLUSTER=$slurm_dir slurmd -D -f "$SLURM_CONF" -N "$slurm_node" >>"$slurm_dir/log/slurmd.out" 2>&1 &
    slurm_pids="$slurm_pids $!"

    # the node is up when sinfo says idle
    _limit=${SLURM_START_SECONDS:-60}
    while :; do
        _state=$(sinfo -h -n "$slurm_node" -o %T 2>/dev/null)
        [ "$_state" = idle ] && break # not idle* (not responding)
        for _pid in $slurm_pids; do
            kill -0 "$_pid" 2>/dev/null ||
                { _slurm_fail "a daemon exited at start (pid $_pid)" || return 1; }
        done
        if [ "$(_slurm_since "$_t0")" -ge "$_limit" ]; then
            _slurm_fail "the node was not idle within $_limit s (state: ${_state:-none})" || return 1
        fi
        sleep 0.2
    done
    slurm_start_seconds=$(_slurm_since "$_t0" 1)
    return 0
}

# _slurm_sweep: KILL, by id, what the cluster left: a job step daemon
# (slurmstepd inherits the daemons' MB_SLURM_CLUSTER) or a job's process
# (SLURM_JOB_ID and this cluster's SLURM_CONF in its environment)
_slurm_sweep() {
    for _d in /proc/[0-9]*; do
        _pid=${_d#/proc/}
        [ "$_pid" = "$$" ] && continue
        _env=$(tr '\0' '\n' 2>/dev/null <"$_d/environ")
        case "
$_env
" in
        *"
MB_SLURM_CLUSTER=$slurm_dir
"*) kill -KILL "$_pid" 2>/dev/null ;;
        *"
SLURM_JOB_ID="*)
            case "
$_env
" in
            *"
SLURM_CONF=$slurm_dir/etc/slurm.conf
"*) kill -KILL "$_pid" 2>/dev/null ;;
            esac
            ;;
        esac
    done
}

# slurm_stop [keep]: cancels the cluster's jobs (waiting up to 20 s for
# them to end), ends its daemons by process id (TERM, then KILL after 10 s)
# and whatever job processes are left, and removes its directory unless
# "keep" is given. Safe to call twice, or after a failed start.
slurm_stop() {
    [ -n "$slurm_dir" ] || return 0
    if [ -n "$slurm_pids" ] && [ -n "${SLURM_CONF:-}" ]; then
        _jobs=$(timeout 10 squeue -h -o %A 2>/dev/null | sort -u)
        if [ -n "$_jobs" ]; then
            # shellcheck disable=SC2086
            timeout 10 scancel $_jobs >/dev/null 2>&1
            _n=0
            while [ $_n -lt 100 ] && [ -n "$(timeout 10 squeue -h -o %A 2>/dev/null)" ]; do
                sleep 0.2
                _n=$((_n + 1))
            done
        fi
    fi
    _stop_pids=$slurm_pids
    for _pid in $_stop_pids; do
        kill -TERM "$_pid" 2>/dev/null
    done
    _n=0
    for _pid in $_stop_pids; do
        while kill -0 "$_pid" 2>/dev/null && [ $_n -lt 100 ]; do
            sleep 0.1
            _n=$((_n + 1))
        done
        kill -KILL "$_pid" 2>/dev/null
        wait "$_pid" 2>/dev/null
    done
    slurm_pids=
    _slurm_sweep
    _slurm_sweep
    [ "${1:-}" = keep ] || rm -rf "$slurm_dir"
    slurm_dir=
    unset SLURM_CONF
    return 0
}
