# One INTERFACE target carries every build setting; every target of ours links it.
add_library(dirbench_build_settings INTERFACE)
target_compile_features(dirbench_build_settings INTERFACE cxx_std_20)
set(CMAKE_CXX_EXTENSIONS OFF)
# Includes are rooted at the repository root: #include "core/run/proberunner.h"
target_include_directories(dirbench_build_settings INTERFACE ${PROJECT_SOURCE_DIR})
target_compile_definitions(dirbench_build_settings INTERFACE
    QT_NO_CAST_FROM_ASCII
    QT_NO_CAST_TO_ASCII
    QT_NO_CAST_FROM_BYTEARRAY
    QT_NO_URL_CAST_FROM_STRING
    QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
    QT_USE_QSTRINGBUILDER
    QT_STRICT_ITERATORS
    QT_DISABLE_DEPRECATED_BEFORE=0x060400
    DIRBENCH_VERSION="${PROJECT_VERSION}")
target_compile_options(dirbench_build_settings INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow=local -Wnon-virtual-dtor -Wcast-align -Wunused -Woverloaded-virtual
    $<$<BOOL:${DIRBENCH_WERROR}>:-Werror>)

# Precompiled headers (the Qt and standard headers nearly every source includes): a cold build, as in CI, parses
# them once per library instead of once per source. Off with -DDIRBENCH_PCH=OFF (then a missing include shows).
option(DIRBENCH_PCH "Precompile the common Qt and standard headers" ON)
set(dirbench_pch_core <QString> <QStringList> <QList> <QMap> <QHash> <QObject> <QJsonObject> <QJsonArray>
    <QJsonDocument> <QJsonValue> <QDateTime> <QFile> <QDir> <QFileInfo> <QLocale> <QVariant> <QtGlobal>
    <vector> <memory> <optional> <functional> <map> <string> <cstdint> <algorithm> <atomic> <mutex>)
set(dirbench_pch_widgets ${dirbench_pch_core} <QWidget> <QLabel> <QVBoxLayout> <QHBoxLayout> <QFormLayout>
    <QPushButton> <QLineEdit> <QComboBox> <QCheckBox> <QSpinBox> <QPainter> <QApplication>)
# dirbench_pch(TARGET core|widgets)
function(dirbench_pch target set)
    if(DIRBENCH_PCH)
        target_precompile_headers(${target} PRIVATE ${dirbench_pch_${set}})
    endif()
endfunction()
