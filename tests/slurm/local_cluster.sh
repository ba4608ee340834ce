#!/usr/bin/env bash
# Brings up (and tears down) a real, minimal single-node Slurm cluster on this machine, for
# tests that need to submit jobs to a scheduler (sbatch, job arrays, dependencies, scancel).
#
# usage: local_cluster.sh start DIR   create DIR and start munged, slurmctld and slurmd in it
#        local_cluster.sh stop DIR    cancel its jobs, stop its daemons (idempotent)
#
# Everything lives in DIR: the munge key and socket, slurm.conf, state, spool, pid files and
# logs. Nothing is read from /etc/slurm, /etc/munge or /run and systemd is not used, so the
# cluster neither needs nor disturbs a system-wide Slurm or munge (the Debian packages' own
# services, if their postinst started them, use other ports and sockets). The daemons run as
# root (slurmd must, to run jobs as their owner) and talk over 127.0.0.1 on two free TCP
# ports picked at start (Slurm 22.05 cannot be told to bind only loopback: it listens on all
# addresses).
#
# `start` prints `export SLURM_CONF=DIR/slurm.conf` on stdout (all else goes to stderr) and
# writes the same line to DIR/env.sh: source it (or eval start's output) and sbatch, squeue,
# scontrol, sinfo and scancel talk to this cluster. It returns once the node is idle and a
# probe job has run (job ids given to the caller therefore start at 2), within START_TIMEOUT
# seconds (default 60); otherwise it prints the tail of the daemons' logs, stops what it
# started and exits 1. It exits 77 (ctest's SKIP_RETURN_CODE) when a Slurm or munge program
# is missing or when not run as root.
#
# Packages (Debian 12, Slurm 22.05): apt-get install slurm-wlm munge
set -euo pipefail

prog=${0##*/}
# The one node's NodeName. slurmd is started with -N, so it need not be this machine's name
# (slurm.conf never names this machine: its hostname need not even resolve).
NODE=localnode
PARTITION=debug
KILL_WAIT=5   # seconds from SIGTERM to SIGKILL when a job is cancelled (Slurm's default: 30)

log() { echo "$prog: $*" >&2; }
die() { log "$*"; exit 1; }

usage() {
  echo "usage: $prog start DIR | stop DIR" >&2
  exit 2
}

# The package each program we need comes from, for the message when one is missing.
declare -A PACKAGE_OF=(
  [munged]=munge [munge]=munge [unmunge]=munge
  [slurmctld]=slurmctld [slurmd]=slurmd [slurmstepd]=slurmd
  [sbatch]=slurm-client [squeue]=slurm-client [sinfo]=slurm-client
  [scontrol]=slurm-client [scancel]=slurm-client
)

# The daemons' executables may be in sbin directories that a non-login PATH lacks.
PATH=$PATH:/usr/sbin:/sbin:/usr/local/sbin

# Exits 77 (skip) with one line naming the packages to install if any program is missing.
require_programs() {
  local missing=() packages=() p
  for p in "${!PACKAGE_OF[@]}"; do
    command -v "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if (( ${#missing[@]} )); then
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort)
    for p in "${missing[@]}"; do packages+=("${PACKAGE_OF[$p]}"); done
    mapfile -t packages < <(printf '%s\n' "${packages[@]}" | sort -u)
    echo "$prog: SKIP: missing ${missing[*]}; install with: apt-get install slurm-wlm munge" \
         "(packages: ${packages[*]})" >&2
    exit 77
  fi
  if (( EUID != 0 )); then
    # slurmd must be root to start jobs as their owner (setuid, setgroups). Skip rather than
    # fail, as for a missing program: the test cannot run here.
    echo "$prog: SKIP: must run as root (slurmd and munged run as root)" >&2
    exit 77
  fi
}

# True if nothing listens on (or is bound to) TCP port $1.
port_is_free() {
  local port=$1
  if command -v ss >/dev/null 2>&1; then
    # -a: TIME_WAIT and connected sockets count too; a daemon binding such a port may fail.
    [[ -z $(ss -Htan "( sport = :$port )" 2>/dev/null) ]]
  else
    # Without ss: the port is busy if a connection to it succeeds.
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 1; fi
  fi
}

# Prints two consecutive free ports below the kernel's ephemeral range (32768+ on Linux), so
# that no outgoing connection can take one between this check and the daemons' bind. The base
# is random so that clusters started at the same time rarely pick the same ports.
pick_ports() {
  local try base
  for (( try = 0; try < 200; try++ )); do
    base=$(( 20000 + RANDOM % 12000 ))
    if port_is_free "$base" && port_is_free $(( base + 1 )); then
      echo "$base $(( base + 1 ))"
      return 0
    fi
  done
  die "no two free consecutive TCP ports found in 20000-32000"
}

# Prints the pid in pid file $1 if that process is alive and one of its arguments is this
# cluster's slurm.conf or munge key (the daemons are started with them), so that a stale pid
# file, whose pid the kernel may have given to another process, is never acted on.
our_pid() {
  local pidfile=$1 pid
  [[ -r $pidfile ]] || return 1
  pid=$(tr -dc '0-9' < "$pidfile")
  [[ -n $pid ]] || return 1
  tr '\0' '\n' 2>/dev/null < "/proc/$pid/cmdline" |
    grep -qxF -e "$DIR/slurm.conf" -e "--key-file=$DIR/munge.key" || return 1
  echo "$pid"
}

# True if process $1 exists and is not a zombie. An exited daemon whose parent does not reap
# it (a container's init often does not) stays a zombie, and kill -0 still succeeds on it.
alive() {
  local state
  read -r state _ < <(stat_fields "$1") || return 1
  [[ $state != Z ]]
}

# Sends SIGTERM to the daemon of pid file $1 (named $2), waits up to 5 s, then SIGKILLs it.
stop_daemon() {
  local pidfile=$1 name=$2 pid i
  pid=$(our_pid "$pidfile") || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for (( i = 0; i < 50; i++ )); do
    alive "$pid" || return 0
    sleep 0.1
  done
  log "$name (pid $pid) did not exit 5 s after SIGTERM; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  for (( i = 0; i < 20; i++ )); do
    alive "$pid" || return 0
    sleep 0.1
  done
  log "$name (pid $pid) still alive after SIGKILL"
}

# Fields 3.. of /proc/$1/stat (state, ppid, pgrp, session, ...): those after "(comm) ", since
# comm itself may contain spaces and parentheses.
stat_fields() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  echo "${stat##*) }"
}

# Backstop for jobs that slurmd did not end (slurmctld already dead, so nothing was cancelled):
# SIGKILLs every process in the session of a slurmstepd of this cluster. A slurmstepd starts its
# own session, in which it runs the job's processes, and it inherits SLURM_CONF=DIR/slurm.conf
# from our slurmd's environment, which is how it is told apart from other clusters' steps.
kill_stray_steps() {
  local proc pid fields sid own_sid sids=" "
  read -r _ _ _ own_sid _ < <(stat_fields $$)
  for proc in /proc/[0-9]*; do
    [[ $(cat "$proc/comm" 2>/dev/null) == slurmstepd ]] || continue
    tr '\0' '\n' 2>/dev/null < "$proc/environ" | grep -qxF "SLURM_CONF=$DIR/slurm.conf" ||
      continue
    fields=$(stat_fields "${proc#/proc/}") || continue
    read -r _ _ _ sid _ <<< "$fields"
    [[ $sid != "$own_sid" ]] && sids+="$sid "
  done
  [[ $sids == " " ]] && return 0
  log "killing leftover job steps (sessions$sids)"
  for proc in /proc/[0-9]*; do
    pid=${proc#/proc/}
    fields=$(stat_fields "$pid") || continue
    read -r _ _ _ sid _ <<< "$fields"
    [[ $sids == *" $sid "* && $pid != "$$" ]] && kill -KILL "$pid" 2>/dev/null
  done
  return 0
}

# Prints the last lines of every log in DIR (for a start that failed).
dump_logs() {
  local f
  for f in "$DIR"/*.log "$DIR"/*.out; do
    [[ -s $f ]] || continue
    echo "---- tail of $f ----" >&2
    tail -n 25 "$f" >&2
  done
}

# Runs a Slurm client against this cluster, bounded in time (a dead slurmctld would otherwise
# make it retry for MessageTimeout and more).
sl() { SLURM_CONF=$DIR/slurm.conf timeout 20 "$@"; }

write_slurm_conf() {
  local ctld_port=$1 slurmd_port=$2 cpus mem_mb
  cpus=$(nproc)
  # RealMemory must not exceed what slurmd finds, or the node is drained ("Low RealMemory").
  # Memory is not allocated (CR_Core), so this only caps what a job may ask for with --mem.
  mem_mb=$(( $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) / 1024 / 2 ))
  (( mem_mb > 2048 )) && mem_mb=2048
  # SlurmctldHost must name this machine, or slurmctld exits ("This host not a valid
  # controller"); "localhost" is accepted as such and does not depend on the hostname. The
  # address in parentheses is where clients and slurmd reach it.
  cat > "$DIR/slurm.conf" <<EOF
# Generated by $prog for a throwaway single-node test cluster.
ClusterName=cudifftest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root

# Our own munged, not the system one (clients read this file too, so sbatch uses it as well).
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge.socket

StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# The default is /etc/slurm/plugstack.conf, which the packages install: keep it out.
PlugStackConfig=$DIR/plugstack.conf
# No mail is ever wanted; the default /usr/bin/mail may not exist.
MailProg=/bin/true

# No cgroups (containers often lack a writable cgroup tree): processes are tracked through
# /proc parentage, tasks are not bound, nothing is measured or accounted.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none

# Cores, not whole nodes, are allocated: two one-CPU jobs (array tasks) run at the same time.
# Not CR_Core_Memory: without a DefMemPerCPU every job would be given all the memory and jobs
# would run one at a time.
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core

# A node that was DOWN comes back as soon as its slurmd registers with a valid configuration.
ReturnToService=2
# Finished jobs leave squeue (and the controller) after 10 s instead of 300.
MinJobAge=10
# scancel or a time limit: SIGTERM, then SIGKILL $KILL_WAIT s later (default 30), so that
# cancelled tests end fast. Less would not help: slurmd waits max(KillWait, 5) s before SIGKILL.
KillWait=$KILL_WAIT
# Jobs are never cancelled because the submitting command went away.
InactiveLimit=0
# Schedule a submitted batch job at once; by default it may wait up to 3 s for the next pass.
SchedulerParameters=batch_sched_delay=0

NodeName=$NODE NodeAddr=127.0.0.1 NodeHostname=$NODE CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=$PARTITION Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
  : > "$DIR/plugstack.conf"
}

# Starts munged on DIR/munge.socket with a fresh key and waits until it answers.
start_munged() {
  local i
  # A fresh random key; slurmctld, slurmd and the clients all go through this one munged, so
  # the key only has to be readable by it (root).
  if command -v mungekey >/dev/null 2>&1; then
    mungekey --create --bits=1024 --keyfile="$DIR/munge.key"
  else
    dd if=/dev/urandom of="$DIR/munge.key" bs=1 count=1024 status=none
  fi
  chmod 0400 "$DIR/munge.key"
  # --force: munged refuses to start when DIR or any directory above it is writable by group
  # or others without the sticky bit (it checks the key, socket, log and seed paths). Where a
  # test puts DIR is not ours to choose and this cluster guards nothing, so those checks may
  # only warn. munged forks into the background and writes its pid file itself.
  munged --force \
    --key-file="$DIR/munge.key" --socket="$DIR/munge.socket" \
    --pid-file="$DIR/munged.pid" --log-file="$DIR/munged.log" --seed-file="$DIR/munged.seed" \
    </dev/null >"$DIR/munged.out" 2>&1 || return 1
  for (( i = 0; i < 50; i++ )); do
    if [[ -S $DIR/munge.socket ]] &&
       munge --socket="$DIR/munge.socket" --no-input 2>/dev/null |
         unmunge --socket="$DIR/munge.socket" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.1
  done
  log "munged does not answer on $DIR/munge.socket"
  return 1
}

# Waits up to $2 s for pid file $1 to name a live process of ours.
wait_pidfile() {
  local pidfile=$1 seconds=$2 i
  for (( i = 0; i < seconds * 10; i++ )); do
    our_pid "$pidfile" >/dev/null && return 0
    sleep 0.1
  done
  log "no live process in $pidfile after $seconds s"
  return 1
}

cmd_start() {
  local ctld_port slurmd_port probe timeout=${START_TIMEOUT:-60} state="" t0=$SECONDS
  require_programs
  if [[ -e $DIR ]] && [[ -n $(ls -A "$DIR" 2>/dev/null) ]]; then
    die "$DIR exists and is not empty: start wants a fresh directory"
  fi
  mkdir -p "$DIR"
  DIR=$(cd "$DIR" && pwd -P)   # every path in slurm.conf must be absolute
  # slurm.conf has no quoting, AuthInfo is split at commas, and the munge socket's path must
  # fit in sockaddr_un.sun_path (108 bytes).
  [[ $DIR =~ ^[A-Za-z0-9_./+-]+$ ]] || die "unsupported characters in $DIR (use [A-Za-z0-9_./+-])"
  (( ${#DIR} <= 80 )) || die "$DIR is too long for a unix socket path inside it"
  # Others may enter DIR (a job of another user must reach the munge socket to run squeue)
  # but not write it (munged distrusts a socket directory that others can write).
  chmod 0755 "$DIR"
  mkdir -p "$DIR/state" "$DIR/spool"

  # From here on, a failure stops what was started and shows why.
  trap 'status=$?; if (( status != 0 )); then log "start failed"; dump_logs; cmd_stop_quiet; fi' EXIT

  read -r ctld_port slurmd_port < <(pick_ports)
  write_slurm_conf "$ctld_port" "$slurmd_port"
  start_munged

  # Both daemons fork into the background and write their pid files; their early messages
  # (before their log files are open) go to *.out. SLURM_CONF is in their environment too:
  # slurmstepd inherits it from slurmd, and stop recognises this cluster's steps by it.
  SLURM_CONF=$DIR/slurm.conf slurmctld -f "$DIR/slurm.conf" \
    </dev/null >"$DIR/slurmctld.out" 2>&1
  wait_pidfile "$DIR/slurmctld.pid" 15
  # -N: this slurmd is node $NODE whatever the machine is called.
  SLURM_CONF=$DIR/slurm.conf slurmd -f "$DIR/slurm.conf" -N "$NODE" \
    </dev/null >"$DIR/slurmd.out" 2>&1
  wait_pidfile "$DIR/slurmd.pid" 15

  # The node is UNKNOWN until slurmd registers, then IDLE. A "*" suffix means the controller
  # does not hear from it; DOWN or DRAIN come with a reason shown below.
  while (( SECONDS - t0 < timeout )); do
    state=$(sl sinfo -h -N -n "$NODE" -o %T 2>/dev/null || true)
    [[ $state == idle ]] && break
    sleep 0.5
  done
  if [[ $state != idle ]]; then
    log "node $NODE is '${state:-not reported}', not idle, after $timeout s"
    sl scontrol show node "$NODE" >&2 2>/dev/null || true
    exit 1
  fi

  # End to end: one trivial batch job must run to completion. That proves what sinfo cannot
  # (credentials reach slurmstepd, the spool is usable, a job really starts), and it outlasts
  # slurmctld's first seconds, in which it schedules nothing (about 3 s here), so the caller's
  # first job starts at once.
  probe=$(sl sbatch --parsable --job-name=cluster-probe --chdir="$DIR" \
            --output="$DIR/probe.out" --wrap true)
  while (( SECONDS - t0 < timeout )); do
    state=$(sl squeue -h -t all -j "$probe" -o %T 2>/dev/null || true)
    case $state in
      COMPLETED) break ;;
      PENDING|CONFIGURING|RUNNING|COMPLETING|"") sleep 0.2 ;;
      *) break ;;
    esac
  done
  if [[ $state != COMPLETED ]]; then
    log "probe job $probe is '${state:-not reported}', not COMPLETED, after $timeout s"
    sl scontrol show job "$probe" >&2 2>/dev/null || true
    exit 1
  fi
  trap - EXIT

  echo "export SLURM_CONF=$DIR/slurm.conf" > "$DIR/env.sh"
  log "cluster up in $(( SECONDS - t0 )) s: slurmctld 127.0.0.1:$ctld_port," \
      "slurmd 127.0.0.1:$slurmd_port, node $NODE ($(nproc) CPUs), partition $PARTITION"
  cat "$DIR/env.sh"
}

cmd_stop_quiet() { cmd_stop 2>/dev/null || true; }

cmd_stop() {
  local ids=() i
  if [[ ! -d $DIR ]]; then
    log "$DIR does not exist: nothing to stop"
    return 0
  fi
  DIR=$(cd "$DIR" && pwd -P)
  if our_pid "$DIR/slurmctld.pid" >/dev/null; then
    # Cancel every job first so that slurmstepd kills its processes the usual way (SIGTERM,
    # then SIGKILL after KillWait); slurmd does not end running jobs when it shuts down.
    mapfile -t ids < <(sl squeue -h -o %A 2>/dev/null | sort -u)
    if (( ${#ids[@]} )); then
      sl scancel "${ids[@]}" 2>/dev/null || true
      # Completing (CG) jobs are still listed until their processes are gone.
      for (( i = 0; i < (KILL_WAIT + 10) * 5; i++ )); do
        [[ -z $(sl squeue -h -o %A 2>/dev/null) ]] && break
        sleep 0.2
      done
    fi
    # Asks slurmctld to stop and to stop every slurmd; the pid-file kills below are the backstop.
    sl scontrol shutdown >/dev/null 2>&1 || true
  fi
  stop_daemon "$DIR/slurmd.pid" slurmd
  stop_daemon "$DIR/slurmctld.pid" slurmctld
  kill_stray_steps
  # Last: the Slurm daemons authenticate their shutdown messages through it.
  stop_daemon "$DIR/munged.pid" munged
}

(( $# == 2 )) || usage
DIR=$2
case $1 in
  start) cmd_start ;;
  stop) cmd_stop ;;
  *) usage ;;
esac
