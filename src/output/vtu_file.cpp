// One .vtu piece written through vtkXMLUnstructuredGridWriter (see vtu_file.hpp).
#include "output/vtu_file.hpp"

#include <vtkCommand.h>
#include <vtkErrorCode.h>
#include <vtkExecutive.h>
#include <vtkNew.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <string>
#include <system_error>

#include "core/error.hpp"
#include "output/atomic_file.hpp"

namespace scfd::output {

namespace {

// Catches VTK error events of one writer: it records the first message and, because an observer
// is present, VTK does not print the message itself (we report it once, as an InputError).
class ErrorCatcher : public vtkCommand {
 public:
  static ErrorCatcher* New() { return new ErrorCatcher; }
  void Execute(vtkObject*, unsigned long, void* call_data) override {
    if (message.empty() && call_data != nullptr) message = static_cast<const char*>(call_data);
    failed = true;
  }
  bool failed = false;
  std::string message;
};

// The first line of VTK's message, without the "vtkXML...Writer (0x...): " prefix.
std::string short_message(const std::string& message) {
  std::string line = message.substr(0, message.find('\n'));
  const auto colon = line.find("): ");
  if (colon != std::string::npos) line = line.substr(colon + 3);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
  return line;
}

// VTK's error code is either one of vtkErrorCode's (>= FirstVTKErrorCode) or the errno of the
// failed system call (e.g. 28, ENOSPC, when the disk is full).
std::string reason(unsigned long code, const ErrorCatcher& errors) {
  if (code > 0 && code < vtkErrorCode::FirstVTKErrorCode)
    return std::error_code(static_cast<int>(code), std::generic_category()).message();
  if (code == vtkErrorCode::OutOfDiskSpaceError) return "No space left on device";
  if (code == vtkErrorCode::CannotOpenFileError) return "cannot open the file for writing";
  if (!errors.message.empty()) return short_message(errors.message);
  // (vtkErrorCode::GetStringFromErrorCode would need the CommonMisc library for this one line.)
  return fmt::format("VTK error code {}", code);
}

void write_vtu_file(vtkUnstructuredGrid* grid, const std::filesystem::path& tmp,
                    const std::filesystem::path& path, Compression compression) {
  vtkNew<vtkXMLUnstructuredGridWriter> writer;
  vtkNew<ErrorCatcher> errors;
  writer->AddObserver(vtkCommand::ErrorEvent, errors);
  // The pipeline reports the writer's failure once more ("Algorithm ... returned failure").
  writer->GetExecutive()->AddObserver(vtkCommand::ErrorEvent, errors);
  writer->SetInputData(grid);
  writer->SetFileName(tmp.c_str());
  writer->SetDataModeToAppended();
  writer->EncodeAppendedDataOff();  // raw binary, not base64
  switch (compression) {
    case Compression::lz4:
      writer->SetCompressorTypeToLZ4();
      break;
    case Compression::zlib:
      writer->SetCompressorTypeToZLib();
      break;
    case Compression::none:
      writer->SetCompressorTypeToNone();
      break;
  }
  writer->SetHeaderTypeToUInt64();  // blocks over 4 GiB
  const int ok = writer->Write();
  const unsigned long code = writer->GetErrorCode();
  if (ok != 1 || code != vtkErrorCode::NoError || errors->failed)
    throw input_error("cannot write '{}': {}", path.string(), reason(code, *errors));
}

}  // namespace

void write_vtu(vtkUnstructuredGrid* grid, const std::filesystem::path& path,
               Compression compression) {
  write_file_atomic(path, [&](const std::filesystem::path& tmp) {
    write_vtu_file(grid, tmp, path, compression);
  });
}

}  // namespace scfd::output
