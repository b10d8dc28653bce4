# ns-2's layer over OTcl, for ackclock.
#
# ns-2's classes are OTcl classes (interpreter.py defines every class of
# ns-2.35 from ns2_classes.json). An object of a SplitObject class has a
# Python half, its shadow (ns-2's split objects have a C++ half), which
# implements the commands no instproc defines; its variables stay OTcl
# instance variables, so `set`, `instvar` and class defaults work as in
# ns-2. The ::ackclock:: commands are the bridge to Python.

# ns-2's links are plain OTcl objects; in ackclock they have a Python half
# too.
foreach cls {SplitObject Link} {
    $cls instproc init args {
        ::ackclock::create $self {*}$args
    }

    $cls instproc destroy {} {
        ::ackclock::destroy $self
        $self next
    }

    # Commands no instproc defines are the shadow's, as ns-2's `cmd`.
    $cls instproc unknown {method args} {
        ::ackclock::cmd $self $method {*}$args
    }
}

# `$obj set var value` on an ns-2 object from outside its own methods: a
# variable ns-2's class does not have is a mistake (a typo, or a variable of
# another class) rather than new state, unless the script's instprocs for
# the object's class use it.
# During the run, a change the simulation cannot follow is refused (the
# shadow's `changing`).
SplitObject instproc set {var args} {
    if {![info exists [::otcl::vars $self]::$var] && ![::ackclock::own_method $self]
            && ![::ackclock::instvar_of_class $self $var]} {
        ::ackclock::check_variable $self $var
    }
    if {$::ackclock::running && [llength $args] == 1} {
        ::ackclock::changing $self $var [lindex $args 0]
    }
    return [$self next $var {*}$args]
}
set ::ackclock::running 0

# Whether an instproc of the object's classes names `var` in `$self instvar`.
proc ::ackclock::instvar_of_class {obj var} {
    foreach cls [::otcl::heritage $::otcl::classof($obj)] {
        foreach method [$cls info instprocs] {
            set body [string map [list "\\\n" " "] [$cls info instbody $method]]
            foreach command [split $body "\n;"] {
                if {[regexp {^\s*\$self\s+instvar\s+(.*)$} $command -> names]
                        && $var in $names} {
                    return 1
                }
            }
        }
    }
    return 0
}

# Whether `set` was called from one of the object's own methods: the
# caller of the chain of `set` methods (aliases of ns-2's) is the object.
proc ::ackclock::own_method {obj} {
    set level 2
    while {![catch {uplevel $level {list $self $proc}} frame]
            && $frame eq [list $obj set]} {
        incr level
    }
    return [expr {![catch {uplevel $level {set self}} caller] && $caller eq $obj}]
}

# Past the last instproc, `next` reaches the shadow's command, so that a
# script's instproc can extend a command of ns-2's.
proc ::otcl::after_last {obj method arguments} {
    if {[::ackclock::has $obj $method]} {
        return [::ackclock::cmd $obj $method {*}$arguments]
    }
    return ""
}

# ns-2's `new`: objects named _o1, _o2, ...; `delete` destroys one.
proc new {cls args} {
    if {![::otcl::is_class $cls]} {
        ::ackclock::no_class $cls
    }
    set name _o[incr ::ackclock::serial]
    $cls create $name {*}$args
    return $name
}
set ::ackclock::serial 0

proc delete {obj} {
    $obj destroy
}

# Copies an object's class defaults into its variables, as ns-2's bound
# variables take them when the object is created.
proc ::ackclock::init_vars {obj names} {
    set vars [::otcl::vars $obj]
    set heritage [::otcl::heritage $::otcl::classof($obj)]
    foreach var $names {
        if {[info exists ${vars}::$var]} {
            continue
        }
        foreach cls $heritage {
            set default [::otcl::vars $cls]::$var
            if {[info exists $default]} {
                set ${vars}::$var [set $default]
                break
            }
        }
    }
}

# The values of those of `names` that the object has, as a dict.
proc ::ackclock::values {obj names} {
    set vars [::otcl::vars $obj]
    set values {}
    foreach var $names {
        if {[info exists ${vars}::$var]} {
            dict set values $var [set ${vars}::$var]
        }
    }
    return $values
}

# Sets the object's `values` (a dict), then follows its `variables` ({name
# live ...}): every write through ::ackclock::typed, the reads of live ones
# through ::ackclock::live. (A trace names the variable as the script
# accessed it, maybe through an instvar alias: the callbacks get its name.)
proc ::ackclock::follow_vars {obj values variables} {
    set vars [::otcl::vars $obj]
    dict for {var value} $values {
        set ${vars}::$var $value
    }
    foreach {var live} $variables {
        if {$live} {
            trace add variable ${vars}::$var read [list ::ackclock::live $obj $var]
        }
        trace add variable ${vars}::$var write [list ::ackclock::typed $obj $var]
    }
}

# --- ns-2's compatibility methods -----------------------------------------

# packet_size_ is the old name of an application's packetSize_.
Application/Traffic instproc set {var args} {
    if {$var eq "packet_size_"} {
        set var packetSize_
    }
    return [$self next $var {*}$args]
}

# A CBR source keeps rate_; interval_ is rate_ seen as the time between
# packets of packetSize_.
Application/Traffic/CBR instproc set {var args} {
    if {$var ne "interval_"} {
        return [$self next $var {*}$args]
    }
    $self instvar packetSize_ rate_
    if {[llength $args]} {
        set interval [[Simulator instance] delay_parse [lindex $args 0]]
        set rate_ [expr {$packetSize_ * 8.0 / $interval}]
        return [lindex $args 0]
    }
    return [expr {$packetSize_ * 8.0 / $rate_}]
}

# class_ is the old name of an agent's fid_.
Agent instproc set {var args} {
    if {$var eq "class_"} {
        set var fid_
    }
    return [$self next $var {*}$args]
}

# ns-2's parsers of bandwidths and times, as plain procedures too.
proc bw_parse {spec} {
    return [::ackclock::bw_parse $spec]
}

proc time_parse {spec} {
    return [::ackclock::time_parse $spec]
}

proc delay_parse {spec} {
    return [::ackclock::time_parse $spec]
}

# --- queue monitors on a link (`$ns monitor-queue`) -------------------------

SimpleLink instproc init-monitor {ns qtrace sampleInterval} {
    $self instvar qtrace_ sampleInterval_
    set qtrace_ $qtrace
    set sampleInterval_ $sampleInterval
    set monitor [new QueueMonitor]
    $self attach-monitors {} {} {} $monitor
    $monitor get-bytes-integrator
    $monitor get-pkts-integrator
    return $monitor
}

SimpleLink instproc start-tracing {} {
}

# Writes "time from to meanBytes meanPkts arrivals departures drops
# barrivals bdepartures bdrops" and samples again after the interval.
SimpleLink instproc queue-sample-timeout {} {
    $self instvar qtrace_ sampleInterval_ fromNode_ toNode_
    set ns [Simulator instance]
    set sample [$self sample-queue-size]
    if {$qtrace_ ne "" && $qtrace_ ne "0"} {
        puts $qtrace_ "[$ns now] [$fromNode_ id] [$toNode_ id] $sample"
    }
    $ns at [expr {[$ns now] + $sampleInterval_}] "$self queue-sample-timeout"
}

# The mean queue (bytes, packets) since the last sample, and the counts.
SimpleLink instproc sample-queue-size {} {
    $self instvar qMonitor_ lastSample_
    set now [[Simulator instance] now]
    set bytes [$qMonitor_ get-bytes-integrator]
    set packets [$qMonitor_ get-pkts-integrator]
    if {![info exists lastSample_]} {
        set lastSample_ 0
    }
    set elapsed [expr {$now - $lastSample_}]
    set meanBytes 0
    set meanPackets 0
    if {$elapsed != 0} {
        set meanBytes [expr {[$bytes set sum_] / $elapsed}]
        set meanPackets [expr {[$packets set sum_] / $elapsed}]
    }
    $bytes set sum_ 0.0
    $packets set sum_ 0.0
    set lastSample_ $now
    set counts {}
    foreach var {parrivals_ pdepartures_ pdrops_ barrivals_ bdepartures_ bdrops_} {
        lappend counts [$qMonitor_ set $var]
    }
    return "$meanBytes $meanPackets [join $counts]"
}

# ns-2's shortcuts to the default generator.
proc uniform {args} {
    return [$::defaultRNG uniform {*}$args]
}

proc exponential {args} {
    return [$::defaultRNG exponential {*}$args]
}

proc integer {args} {
    return [$::defaultRNG integer {*}$args]
}

# ns-2's General Operations Director: one God, told the number of nodes.
proc create-god {nodes} {
    set god [God info instances]
    if {$god eq ""} {
        set god [new God]
    }
    $god num_nodes $nodes
    return $god
}

# ackclock's packets carry every header; headers.py keeps what the script chose.
proc remove-all-packet-headers {} {
    ::ackclock::packet_headers remove-all
}
proc remove-packet-header {args} {
    ::ackclock::packet_headers remove {*}$args
}
proc add-packet-header {args} {
    ::ackclock::packet_headers add {*}$args
}
proc add-all-packet-headers {} {
    ::ackclock::packet_headers add-all
}

# Routing modules of the nodes created afterwards (nodes.py says which).
Node proc enable-module {name} {
    ::ackclock::enable_module $name
    Node instvar module_list_
    if {$name ni $module_list_} {
        lappend module_list_ $name
    }
}

Simulator proc instance {} {
    return [::ackclock::simulator]
}

# `$ns at TIME SCRIPT`, remembering where the script was scheduled for the
# error message if it fails.
Simulator instproc at {time script} {
    set frame [info frame -1]
    set where {}
    if {[dict exists $frame file] && [dict exists $frame line]} {
        set where [list [dict get $frame file] [dict get $frame line]]
    }
    return [::ackclock::cmd $self at $time $script $where]
}
