# The Tcl around an ns-2 script in ackclock: the few built-in commands the
# front end watches (loaded after otcl.tcl and ns2.tcl, before the script).

# Where each procedure and method is defined, for error messages.
rename proc ::ackclock::tcl_proc
::ackclock::tcl_proc proc {name arguments body} {
    uplevel 1 [list ::ackclock::tcl_proc $name $arguments $body]
    ::ackclock::defined [uplevel 1 [list namespace which -command $name]]
}

# Which file each channel writes (traces go into the script's files). A
# file opened to be written anew is, once truncated, opened for appending,
# so that the script's lines and the core's records both go to its end.
rename open ::ackclock::tcl_open
proc open {args} {
    set channel [::ackclock::tcl_open {*}$args]
    if {[lindex $args 1] eq "w"} {
        ::ackclock::tcl_close $channel
        set channel [::ackclock::tcl_open [lindex $args 0] a]
    }
    ::ackclock::opened $channel {*}$args
    return $channel
}

rename close ::ackclock::tcl_close
proc close {channel args} {
    ::ackclock::closing $channel
    ::ackclock::tcl_close $channel {*}$args
}

# `exit` ends the run (traces complete) with the script's status. (tkinter
# removes Tcl's own `exit`.)
proc exit {{status 0}} {
    ::ackclock::exit $status
}

# A command that does not exist: Tcl's own search (autoloaded library
# procedures), then an error that suggests the closest command.
rename unknown ::ackclock::tcl_unknown
proc unknown {args} {
    set code [catch {uplevel 1 [list ::ackclock::tcl_unknown {*}$args]} result options]
    if {$code == 1 && [string match "invalid command name *" $result]} {
        set name [lindex $args 0]
        return -code error "invalid command name \"$name\"[::ackclock::suggest $name]"
    }
    return -options $options $result
}

proc ns-random {args} {
    return [::ackclock::ns_random {*}$args]
}

# What ns-2's build records about its machine (ns-autoconf.tcl): the
# validation suites run their perl helpers through $PERL.
set PERL [expr {[auto_execok perl] ne "" ? [lindex [auto_execok perl] 0] : "perl"}]
set TCLSH [expr {[auto_execok tclsh] ne "" ? [lindex [auto_execok tclsh] 0] : "tclsh"}]
