package atomicfile

import (
	"fmt"
	"os"
)

// Lock takes the exclusive lock of a file that a writer updates from its
// old content (a book that learns, a training checkpoint): two such
// writers at once would each read the old file and the second rename
// would drop the first one's update. The lock lives in a file beside
// path, PATH.lock, because path itself is replaced by every write and a
// lock on the replaced file would guard nothing. If another process holds
// the lock, Lock calls waiting (which tells the person) and waits for it;
// with waiting nil it fails at once with a message naming the file.
// unlock releases the lock; PATH.lock stays, empty.
func Lock(path string, waiting func()) (unlock func(), err error) {
	name := path + ".lock"
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock for %s: %w", path, err)
	}
	busy, err := tryLock(f)
	if err == nil && busy {
		if waiting == nil {
			f.Close()
			return nil, fmt.Errorf("%s is being updated by another process (it holds %s)", path, name)
		}
		waiting()
		err = waitLock(f)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	return func() { f.Close() }, nil // closing the file releases the lock
}
