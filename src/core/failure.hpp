// A failure that only this rank met: a file that only rank 0 writes (probes.csv, the summary)
// could not be written. Throwing there would leave the other ranks waiting in the next collective
// for ever; so the code that meets it records it and goes on, and the run loop agrees on it at
// the end of the step (first_message): every rank then stops with the same message.
#pragma once

#include <string>

namespace scfd {

// Keeps the first failure recorded since the last take_recorded_failure().
void record_failure(std::string message);
// The recorded failure ("" if none), cleared.
std::string take_recorded_failure();

}  // namespace scfd
