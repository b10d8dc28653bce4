# OTcl, the object system ns-2's scripts are written in, for ackclock.
#
# Written for ackclock from OTcl's documentation and from its behaviour as
# ns-2.35 shows it (tests/test_tcl_otcl.py compares the two); it shares no
# code with OTcl.
#
# Objects and classes are Tcl commands (aliases of ::otcl::dispatch). Object
# N keeps its variables in the namespace ::otcl::v::N. A method is a Tcl proc
# called with `self class proc` before its own arguments, as OTcl calls it:
# a class's instprocs live in ::otcl::m::N, an object's own procs in
# ::otcl::p::N. OTcl's built-in methods are instprocs of Object and Class
# marked as built in, so that `info instprocs` leaves them out.

namespace eval ::otcl {
    variable serial 0
    # object name -> number (its namespaces' name)
    variable id
    # object name -> its class
    variable classof
    # class -> its direct superclasses
    variable supers
    # object or class, method -> the proc implementing it
    variable procs
    variable instprocs
    # class,method -> 1 for OTcl's own methods
    variable builtin
    # class -> its precedence list; class,method -> {proc class ...}; both
    # are caches, emptied whenever a class or method changes.
    variable heritage
    variable chain
}

proc ::otcl::forget {} {
    variable heritage
    variable chain
    array unset heritage
    array unset chain
}

proc ::otcl::vars {obj} {
    return ::otcl::v::$::otcl::id($obj)
}

proc ::otcl::is_object {name} {
    return [info exists ::otcl::id($name)]
}

proc ::otcl::is_class {name} {
    return [info exists ::otcl::supers($name)]
}

# The precedence list of a class: the class, then its superclasses in an
# order where each class comes after all of its subclasses and, among
# unrelated classes, superclasses listed first come first (OTcl's order: a
# depth-first search visiting the superclasses from right to left, in
# reverse finishing order).
proc ::otcl::heritage {cls} {
    variable heritage
    if {![info exists heritage($cls)]} {
        set finished {}
        set seen [dict create]
        ::otcl::visit $cls seen finished
        set heritage($cls) [lreverse $finished]
    }
    return $heritage($cls)
}

proc ::otcl::visit {cls seenVar finishedVar} {
    upvar 1 $seenVar seen $finishedVar finished
    dict set seen $cls 1
    foreach super [lreverse $::otcl::supers($cls)] {
        if {![dict exists $seen $super]} {
            ::otcl::visit $super seen finished
        }
    }
    lappend finished $cls
}

# Every implementation of `method` for `obj`, first to last: its own proc,
# then its classes' instprocs in precedence order; a flat list of
# {proc defining-class} pairs ("" for an object's own proc).
proc ::otcl::chain {obj method} {
    variable chain
    variable classof
    set cls $classof($obj)
    if {![info exists chain($cls,$method)]} {
        set found {}
        foreach c [::otcl::heritage $cls] {
            if {[info exists ::otcl::instprocs($c,$method)]} {
                lappend found $::otcl::instprocs($c,$method) $c
            }
        }
        set chain($cls,$method) $found
    }
    if {[info exists ::otcl::procs($obj,$method)]} {
        return [list $::otcl::procs($obj,$method) "" {*}$chain($cls,$method)]
    }
    return $chain($cls,$method)
}

# `$obj method args...`: the first implementation in the chain, or the
# object's `unknown` method. `next` continues the chain after the method
# that calls it.
proc ::otcl::dispatch {obj args} {
    if {![llength $args]} {
        return -code error "wrong # args: should be {$obj message ?args...?}"
    }
    set method [lindex $args 0]
    if {$method eq "next"} {
        if {[catch {uplevel 1 {list $self $class $proc}} caller]} {
            return -code error "no executing proc"
        }
        lassign $caller self cls proc
        set rest [lassign [::otcl::chain $self $proc] impl owner]
        if {$cls ne ""} {
            while {$impl ne "" && $owner ne $cls} {
                set rest [lassign $rest impl owner]
            }
        }
        lassign $rest impl owner
        if {$impl eq ""} {
            return [::otcl::after_last $self $proc [lrange $args 1 end]]
        }
        tailcall $impl $self $owner $proc {*}[lrange $args 1 end]
    }
    lassign [::otcl::chain $obj $method] impl owner
    if {$impl ne ""} {
        tailcall $impl $obj $owner $method {*}[lrange $args 1 end]
    }
    lassign [::otcl::chain $obj unknown] impl owner
    if {$impl ne ""} {
        tailcall $impl $obj $owner unknown {*}$args
    }
    return -code error "$obj: unable to dispatch method $method"
}

# What `next` gives past the last method: nothing, as in OTcl. (ackclock's
# ns-2 classes replace this to reach their compiled commands.)
proc ::otcl::after_last {obj method arguments} {
    return ""
}

# Defines (or, with empty arguments and body, removes) a method of `owner`:
# an object's proc (procsVar ::otcl::procs) or a class's instproc. The Tcl
# proc is named after it ("A instproc foo", "a proc bar") in the global
# namespace, where OTcl runs methods.
proc ::otcl::define {procsVar owner name arguments body} {
    upvar #0 $procsVar table
    set kind [expr {$procsVar eq "::otcl::procs" ? "proc" : "instproc"}]
    set impl [list ::$owner $kind $name]
    if {$arguments eq "" && $body eq ""} {
        unset -nocomplain table($owner,$name)
        catch {rename $impl ""}
    } else {
        proc $impl [list self class proc {*}$arguments] $body
        set table($owner,$name) $impl
    }
    ::otcl::forget
}

proc ::otcl::alloc {cls name} {
    variable serial
    variable id
    variable classof
    if {[info exists id($name)]} {
        ::otcl::free $name
    }
    set id($name) [incr serial]
    set classof($name) $cls
    namespace eval ::otcl::v::$id($name) {}
    interp alias {} ::[string trimleft $name :] {} ::otcl::dispatch $name
    # (Class itself first: ns-2's class tree is made of hundreds of them.)
    if {$cls eq "Class" || [::otcl::inherits $cls Class]} {
        set ::otcl::supers($name) [expr {$name eq "Object" ? {} : "Object"}]
        ::otcl::forget
    }
    return $name
}

# Defines classes in bulk, superclasses first, each {name superclasses
# {variable value ...}}: ns-2's class tree at start-up, handed over in one call.
proc ::otcl::define_classes {classes} {
    foreach definition $classes {
        lassign $definition name supers defaults
        ::otcl::alloc Class $name
        set ::otcl::supers($name) $supers
        set vars [::otcl::vars $name]
        dict for {var value} $defaults {
            set ${vars}::$var $value
        }
    }
    ::otcl::forget
}

proc ::otcl::free {obj} {
    variable id
    set n $id($obj)
    foreach name [::otcl::names ::otcl::procs $obj * 1] {
        ::otcl::define ::otcl::procs $obj $name {} {}
    }
    catch {namespace delete ::otcl::v::$n}
    if {[info exists ::otcl::supers($obj)]} {
        # A class goes with its instances, and out of its subclasses' lists.
        foreach {instance cls} [array get ::otcl::classof] {
            if {$cls eq $obj && $instance ne $obj && [info exists id($instance)]} {
                $instance destroy
            }
        }
        foreach cls [array names ::otcl::supers] {
            set ::otcl::supers($cls) [lsearch -all -inline -not -exact $::otcl::supers($cls) $obj]
        }
        unset ::otcl::supers($obj)
        foreach name [::otcl::names ::otcl::instprocs $obj * 1] {
            ::otcl::define ::otcl::instprocs $obj $name {} {}
        }
        ::otcl::forget
    }
    unset id($obj) ::otcl::classof($obj)
    catch {rename ::[string trimleft $obj :] ""}
}

proc ::otcl::newest_first {objects} {
    return [lsort -command {apply {{a b} {expr {$::otcl::id($b) - $::otcl::id($a)}}}} $objects]
}

proc ::otcl::inherits {cls ancestor} {
    return [expr {[lsearch -exact [::otcl::heritage $cls] $ancestor] >= 0}]
}

proc ::otcl::check_class {name} {
    if {![::otcl::is_class $name]} {
        return -code error "expected a list of classes but got $name"
    }
}

# --- the bootstrap: Object and Class are classes, Class is an instance of
# itself, Object of Class.
set ::otcl::supers(Object) {}
set ::otcl::supers(Class) Object
foreach {::otcl::name} {Object Class} {
    set ::otcl::id($::otcl::name) [incr ::otcl::serial]
    set ::otcl::classof($::otcl::name) Class
    namespace eval ::otcl::v::$::otcl::id($::otcl::name) {}
    interp alias {} ::$::otcl::name {} ::otcl::dispatch $::otcl::name
}
unset ::otcl::name

proc ::otcl::builtin {cls name arguments body} {
    ::otcl::define ::otcl::instprocs $cls $name $arguments $body
    set ::otcl::builtin($cls,$name) 1
}

# --- Object's methods -------------------------------------------------------

::otcl::builtin Object init {args} {
    if {[llength $args] % 2} {
        return -code error "uneven number of args"
    }
    foreach {option value} $args {
        if {[string index $option 0] ne "-"} {
            return -code error "expected an option like -name but got $option"
        }
        set method [string range $option 1 end]
        if {[catch {$self $method $value} message options]} {
            return -options $options "$message during {$self} {$method} {$value}"
        }
    }
}

::otcl::builtin Object set {args} {
    if {[llength $args] < 1 || [llength $args] > 2} {
        return -code error "wrong # args: should be {$self set var ?value?}"
    }
    set var [::otcl::vars $self]::[lindex $args 0]
    if {[llength $args] == 2} {
        return [set $var [lindex $args 1]]
    }
    if {![info exists $var]} {
        return -code error "can't read \"[lindex $args 0]\": no such variable"
    }
    return [set $var]
}

::otcl::builtin Object unset {args} {
    foreach name $args {
        if {![info exists [::otcl::vars $self]::$name]} {
            return -code error "can't unset \"$name\": no such variable"
        }
        unset [::otcl::vars $self]::$name
    }
}

::otcl::builtin Object array {option name args} {
    return [array $option [::otcl::vars $self]::$name {*}$args]
}

::otcl::builtin Object instvar {args} {
    if {![llength $args]} {
        return -code error "wrong # args: should be {$self instvar ?vars?}"
    }
    foreach spec $args {
        lassign $spec name alias
        if {$alias eq ""} {
            set alias $name
        }
        uplevel 1 [list upvar #0 [::otcl::vars $self]::$name $alias]
    }
}

::otcl::builtin Object proc {name arguments body} {
    ::otcl::define ::otcl::procs $self $name $arguments $body
}

::otcl::builtin Object class {{cls ""}} {
    if {$cls eq ""} {
        return $::otcl::classof($self)
    }
    ::otcl::check_class $cls
    set ::otcl::classof($self) $cls
    return
}

::otcl::builtin Object destroy {} {
    ::otcl::free $self
}

::otcl::builtin Object info {{option ""} args} {
    set vars [::otcl::vars $self]
    switch -- $option {
        class {
            if {[llength $args]} {
                return [::otcl::inherits $::otcl::classof($self) [lindex $args 0]]
            }
            return $::otcl::classof($self)
        }
        vars {
            set pattern [expr {[llength $args] ? [lindex $args 0] : "*"}]
            set names {}
            foreach var [info vars ${vars}::$pattern] {
                if {[info exists $var]} {
                    lappend names [namespace tail $var]
                }
            }
            return $names
        }
        procs - commands {
            return [::otcl::names ::otcl::procs $self {*}$args]
        }
        args - body - default {
            return [::otcl::describe ::otcl::procs $self $option $args]
        }
        "" {
            return -code error "wrong # args: should be {$self info <opt> ?args?}"
        }
        default {
            return -code error "expected an info option but got $option"
        }
    }
}

proc ::otcl::names {procsVar owner {pattern *} {builtins 0}} {
    upvar #0 $procsVar table
    set names {}
    set escaped [string map {* \\* ? \\? [ \\[ ] \\]} $owner]
    foreach key [array names table $escaped,*] {
        set name [string range $key [string length $owner,] end]
        if {[string match $pattern $name]
            && ($builtins || ![info exists ::otcl::builtin($key)])} {
            lappend names $name
        }
    }
    return $names
}

# `info args|body|default` (and their inst- forms) of a method.
proc ::otcl::describe {procsVar owner option arguments} {
    upvar #0 $procsVar table
    set name [lindex $arguments 0]
    if {![info exists table($owner,$name)]} {
        return -code error "$owner: no method $name"
    }
    set impl $table($owner,$name)
    switch -- $option {
        args {
            return [lrange [info args $impl] 3 end]
        }
        body {
            return [info body $impl]
        }
        default {
            lassign $arguments name arg varName
            upvar 2 $varName value
            if {[lsearch -exact [info args $impl] $arg] < 3} {
                return -code error "procedure \"$name\" doesn't have an argument \"$arg\""
            }
            return [info default $impl $arg value]
        }
    }
}

# --- Class's methods --------------------------------------------------------

::otcl::builtin Class alloc {name args} {
    return [::otcl::alloc $self $name]
}

::otcl::builtin Class create {name args} {
    set obj [$self alloc $name]
    $obj init {*}$args
    return $obj
}

::otcl::builtin Class unknown {name args} {
    return [$self create $name {*}$args]
}

::otcl::builtin Class instproc {name arguments body} {
    ::otcl::define ::otcl::instprocs $self $name $arguments $body
}

::otcl::builtin Class superclass {{classes ""}} {
    if {[llength [info level 0]] == 4} {
        return $::otcl::supers($self)
    }
    foreach cls $classes {
        ::otcl::check_class $cls
        if {$cls eq $self || [::otcl::inherits $cls $self]} {
            return -code error "expected a cycle-free graph but got [list $classes]"
        }
    }
    foreach earlier $classes {
        foreach later [lrange $classes [lsearch -exact $classes $earlier]+1 end] {
            if {[::otcl::inherits $later $earlier]} {
                return -code error "expected classes in dependence order but got [list $classes]"
            }
        }
    }
    if {$classes eq ""} {
        set classes Object
    }
    set ::otcl::supers($self) $classes
    ::otcl::forget
}

::otcl::builtin Class info {{option ""} args} {
    switch -- $option {
        superclass {
            if {[llength $args]} {
                # does this class derive from (or equal) the class given?
                ::otcl::check_class [lindex $args 0]
                return [::otcl::inherits $self [lindex $args 0]]
            }
            return $::otcl::supers($self)
        }
        subclass {
            if {[llength $args]} {
                set other [lindex $args 0]
                ::otcl::check_class $other
                return [::otcl::inherits $other $self]
            }
            set found {}
            foreach cls [array names ::otcl::supers] {
                if {[lsearch -exact $::otcl::supers($cls) $self] >= 0} {
                    lappend found $cls
                }
            }
            return [::otcl::newest_first $found]
        }
        heritage {
            set pattern [expr {[llength $args] ? [lindex $args 0] : "*"}]
            return [lsearch -all -inline -glob [lrange [::otcl::heritage $self] 1 end] $pattern]
        }
        instances {
            set pattern [expr {[llength $args] ? [lindex $args 0] : "*"}]
            set found {}
            foreach {obj cls} [array get ::otcl::classof] {
                if {$cls eq $self && [string match $pattern $obj]} {
                    lappend found $obj
                }
            }
            return [::otcl::newest_first $found]
        }
        instprocs {
            return [::otcl::names ::otcl::instprocs $self {*}$args]
        }
        instcommands {
            set pattern [expr {[llength $args] ? [lindex $args 0] : "*"}]
            return [::otcl::names ::otcl::instprocs $self $pattern 1]
        }
        instargs - instbody - instdefault {
            return [::otcl::describe ::otcl::instprocs $self [string range $option 4 end] $args]
        }
        default {
            tailcall $::otcl::instprocs(Object,info) $self Object info $option {*}$args
        }
    }
}
