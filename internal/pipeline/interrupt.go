package pipeline

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// Interruptible returns the context of a run's work, canceled at the first
// interrupt (os.Interrupt; SIGTERM, as a CI job's timeout sends; SIGHUP, as
// a closed terminal sends; SIGQUIT), and the
// context of what must not be cut short once it has begun, canceled at the
// second: verifying the best value a search found before it was stopped,
// and writing it as any result is written. stop releases the signals.
func Interruptible() (work, finish context.Context, stop func()) {
	finish, abandon := context.WithCancel(context.Background())
	work, interrupt := context.WithCancel(finish)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	done := make(chan struct{})
	go func() {
		for n := 0; ; n++ {
			select {
			case <-sigs:
				if n > 0 {
					abandon()
					return
				}
				interrupt()
			case <-done:
				return
			}
		}
	}()
	return work, finish, func() {
		signal.Stop(sigs)
		close(done)
		interrupt()
		abandon()
	}
}
